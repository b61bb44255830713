// `npm run bench:scale-out`: the service on one PostgreSQL with one web instance and one worker, then two of
// each (docs/DEPLOYMENT.md): payments created through every web instance at once (each create's event is
// delivered to a local webhook receiver by the workers), then the same with one web instance and one worker
// SIGKILLed mid-run. Prints creates and deliveries per second, p99, machine CPU per create, errors, and how long
// the deliveries of the killed worker took to be taken over. Env: BENCH_SECONDS (10), BENCH_CONNECTIONS (16 per
// web instance).
import { randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import autocannon from "autocannon";
import { resetConfig } from "@/lib/platform/config/env";
import { closeDb, getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { createWebhookEndpoint } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { ensureNextBuild } from "@/scripts/lib/ensure-build";
import { spawnWebServer, type SpawnedWebServer } from "@/scripts/lib/spawn-web";
import { spawnWorker, type SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { createTestDatabase } from "@/tests/setup/test-database";
import { fillAddressPool } from "./lib/address-pools";
import { machineTicks } from "./lib/measure";
import { merchantWithKeys } from "./lib/merchant-with-keys";

const root = path.resolve(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 16);
const KEYS = 4000; // the 60/min per-key limit never binds

ensureNextBuild(root, (line) => console.error(line));
const database = await createTestDatabase(root);
await migrateDatabase(database.url);
const env = {
  DATABASE_URL: database.url,
  MASTER_KEY: randomBytes(32).toString("base64"),
  WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
  LOG_LEVEL: "error",
  // Jobs only: no sandbox chain runs here, so no watcher or outbound leader.
  WORKER_ROLES: "jobs",
  JOB_LOCK_RECOVERY_SECONDS: "15",
};
Object.assign(process.env, env);
resetConfig();

let delivered = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    delivered++;
    res.writeHead(200).end("ok");
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

interface Row {
  layout: string;
  creates: number;
  p99: number;
  errors: number;
  cpuMs: number;
  deliveries: number;
  drainS: number;
}

const pending = async () =>
  (
    await query<{ n: number }>(getDb(), "select count(*)::int as n from webhook_deliveries where status <> 'succeeded'")
  )[0]!.n;

let runs = 0;
async function run(layout: string, n: number, secrets: string[], kill: boolean): Promise<Row> {
  runs++;
  const [webs, workers] = await Promise.all([
    Promise.all(Array.from({ length: n }, () => spawnWebServer(root, env))),
    Promise.all(Array.from({ length: n }, () => spawnWorker(root, env))),
  ]);
  const live: (SpawnedWebServer | SpawnedWorker)[] = [...webs, ...workers];
  // One request by hand first: a load that only measures refusals is no measurement.
  for (const web of webs) {
    const res = await fetch(`${web.url}/v1/payments`, {
      method: "POST",
      headers: { authorization: `Bearer ${secrets[0]}`, "content-type": "application/json" },
      body: JSON.stringify({ amount: "5.000000", chain: "eth" }),
    });
    if (res.status !== 200) throw new Error(`POST /v1/payments answered ${res.status}: ${await res.text()}`);
  }
  let k = 0;
  const load = (url: string) =>
    autocannon({
      url,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            method: "POST",
            path: "/v1/payments",
            headers: {
              authorization: `Bearer ${secrets[k++ % secrets.length]}`,
              "content-type": "application/json",
              "idempotency-key": `scale-${process.pid}-${runs}-${k}`,
            },
            body: JSON.stringify({ amount: "5.000000", chain: "eth" }),
          }),
        },
      ],
    });
  const deliveredBefore = delivered;
  const ticks = machineTicks();
  const killer = kill
    ? new Promise<void>((r) =>
        setTimeout(
          async () => {
            await Promise.all([webs[0]!.kill(), workers[0]!.kill()]);
            r();
          },
          (SECONDS * 1000) / 2,
        ),
      )
    : Promise.resolve();
  const results = await Promise.all(webs.map((w) => load(w.url)));
  await killer;
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  const cpuMs = ((machineTicks() - ticks) * 10) / Math.max(1, total);
  const deliveredInRun = delivered - deliveredBefore;
  const drainStart = Date.now();
  while ((await pending()) > 0) await new Promise((r) => setTimeout(r, 200));
  const drainS = (Date.now() - drainStart) / 1000;
  await Promise.all(live.map((p) => p.stop()));
  return {
    layout,
    creates: results.reduce((sum, r) => sum + r.requests.average, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
    cpuMs,
    deliveries: deliveredInRun / SECONDS,
    drainS,
  };
}

try {
  const { merchantId, secrets } = await merchantWithKeys(KEYS);
  await createWebhookEndpoint(getDb(), { merchantId, mode: "sandbox" }, { url: hook });
  // The addresses a worker would have derived ahead; the workers here top the pool up as it runs low.
  await fillAddressPool("evm", 30_000);

  const rows = [
    await run("1 web + 1 worker", 1, secrets, false),
    await run("2 web + 2 workers", 2, secrets, false),
    await run("2 web + 2 workers, one of each SIGKILLed at half time", 2, secrets, true),
  ];
  const [duplicates] = await query<{ n: number }>(
    getDb(),
    "select count(*)::int as n from (select event_id from webhook_deliveries " +
      "group by event_id, endpoint_id having count(*) > 1) d",
  );
  console.log(
    `\nbench:scale-out — ${SECONDS}s per layout, ${CONNECTIONS} connections per web instance, one PostgreSQL`,
  );
  console.log(
    ["layout".padEnd(56), "creates/s", "p99 ms", "errors", "cpu ms", "deliv/s", "drain s"]
      .map((h, i) => (i ? h.padStart(10) : h))
      .join(" "),
  );
  for (const r of rows)
    console.log(
      [
        r.layout.padEnd(56),
        r.creates.toFixed(0).padStart(10),
        String(r.p99).padStart(10),
        String(r.errors).padStart(10),
        r.cpuMs.toFixed(2).padStart(10),
        r.deliveries.toFixed(0).padStart(10),
        r.drainS.toFixed(1).padStart(10),
      ].join(" "),
    );
  console.log(
    "(cpu ms: CPU time of the whole machine per create; errors: refused or failed requests, which a client retries)",
  );
  console.log(`two of each / one of each, creates: ${(rows[1]!.creates / rows[0]!.creates).toFixed(2)}x`);
  console.log(`webhook deliveries made twice for one event: ${duplicates!.n}`);
} finally {
  receiver.close();
  await closeDb();
  await database.drop();
}
