// `npm run bench:api`: throughput and latency of a trivial Next route vs. the full /v1 pipeline
// (auth, rate limit, scope, zod validation, Idempotency-Key, transaction) on one web instance.
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { closeDb, getDb, inTransaction } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { createApiKey } from "@/lib/keys/create-api-key";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { ensureNextBuild } from "@/scripts/lib/ensure-build";
import { spawnWebServer } from "@/scripts/lib/spawn-web";
import { createTestDatabase } from "@/tests/setup/test-database";

const root = path.resolve(import.meta.dirname, "..");
const DURATION_S = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
// Enough keys that the 60/min per-key limit never binds: every key is used at most ~40 times a minute.
const KEYS = Number(process.env.BENCH_KEYS || 1500);

interface Figures {
  name: string;
  /** CPU time of the web process per request (user + system), from /proc. */
  cpuMs: number;
  /** CPU of the whole machine per request (web + PostgreSQL + load generator). */
  machineMs: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Busy CPU of the whole machine (all cores, every process: web, PostgreSQL, load generator), in ticks. */
function machineTicks(): number {
  const [, ...fields] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return user! + nice! + system! + irq! + softirq! + steal!;
}

function cpuTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (1/100 s)
}

async function measure(name: string, pid: number, opts: autocannon.Options): Promise<Figures> {
  const before = cpuTicks(pid);
  const machineBefore = machineTicks();
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...opts });
  const requests = Math.max(1, result.requests.total);
  const cpuMs = ((cpuTicks(pid) - before) * 10) / requests;
  const machineMs = ((machineTicks() - machineBefore) * 10) / requests;
  return { name, cpuMs, machineMs, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

ensureNextBuild(root, (line) => console.error(line));
const database = await createTestDatabase(root);
await migrateDatabase(database.url);
process.env.DATABASE_URL = database.url;
if (process.env.BENCH_ASYNC_COMMIT) {
  const { getPool } = await import("@/lib/db/client");
  await getPool().query(`alter database ${new URL(database.url).pathname.slice(1)} set synchronous_commit = off`);
  await closeDb();
}
process.env.MASTER_KEY ??= (await import("node:crypto")).randomBytes(32).toString("base64");
const server = await spawnWebServer(root, { DATABASE_URL: database.url, MASTER_KEY: process.env.MASTER_KEY, LOG_LEVEL: "warn" });

try {
  const { merchant } = await createMerchant(getDb(), { name: "Bench", email: "bench@example.com" });
  const secrets: string[] = [];
  await inTransaction(getDb(), async (tx) => {
    for (let i = 0; i < KEYS; i++) secrets.push((await createApiKey(tx, { merchantId: merchant.id, mode: "sandbox" })).secret);
  });
  await closeDb();

  // Warm both paths (JIT, route compilation, pool connections) before measuring.
  await autocannon({ url: `${server.url}/api/health`, connections: 8, amount: 500 });
  let n = 0;
  const pipelineRequest = (client: { setHeaders?: unknown }, i = n++) => ({
    method: "POST" as const,
    path: "/v1/payment-links",
    headers: {
      authorization: `Bearer ${secrets[i % secrets.length]}`,
      "content-type": "application/json",
      ...(process.env.BENCH_NO_IDEM ? {} : { "idempotency-key": `bench-${process.pid}-${i}` }),
    },
    body: JSON.stringify({ amount: "25.50", description: `order ${i}` }),
  });
  await autocannon({ url: server.url, connections: 8, amount: 300, requests: [{ setupRequest: (req) => ({ ...req, ...pipelineRequest({}) }) }] });

  const only = process.env.BENCH_ONLY; // "trivial" or "pipeline", for profiling one case
  const skipped: Figures = { name: "(skipped)", cpuMs: NaN, machineMs: NaN, rps: NaN, p50: NaN, p99: NaN, non2xx: 0, errors: 0 };
  const trivial = only === "pipeline" ? skipped : await measure("GET /api/health (trivial Next route)", server.pid, { url: `${server.url}/api/health` });
  const pipeline = only === "trivial" ? skipped : await measure("POST /v1/payment-links (auth+limit+zod+idempotency+tx)", server.pid, {
    url: server.url,
    requests: [{ setupRequest: (req) => ({ ...req, ...pipelineRequest({}) }) }],
  });

  console.log(`\nbench:api — ${DURATION_S}s per case, ${CONNECTIONS} connections, ${KEYS} keys, one web instance, ${process.env.REDIS_URL ? "Redis" : "Postgres"} rate-limit store`);
  console.log("case".padEnd(58), "req/s".padStart(8), "p50 ms".padStart(8), "p99 ms".padStart(8), "non-2xx".padStart(8), "errors".padStart(7), "web cpu ms".padStart(11), "all cpu ms".padStart(11));
  for (const f of [trivial, pipeline]) {
    console.log(f.name.padEnd(58), f.rps.toFixed(0).padStart(8), String(f.p50).padStart(8), String(f.p99).padStart(8), String(f.non2xx).padStart(8), String(f.errors).padStart(7), f.cpuMs.toFixed(2).padStart(11), f.machineMs.toFixed(2).padStart(11));
  }
  console.log("(web cpu ms / all cpu ms: CPU time per request of the web process / of the whole 2-core machine)");
  console.log(`pipeline / trivial throughput: ${((pipeline.rps / trivial.rps) * 100).toFixed(1)} % (target ≥ 60 %)`);
} finally {
  await server.stop();
  await closeDb();
  await database.drop();
}
