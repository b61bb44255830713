// `npm run bench:handlers`: the /v1 route handlers called in process, without Next or HTTP, on a fresh
// database: CPU per request of this process (the pipeline, the domain, the driver) against bench:api's
// web process (the same plus HTTP and the socket), so a create's cost splits into HTTP's and ours.
// Env: BENCH_REQUESTS (per case), BENCH_CONCURRENCY.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { resetConfig } from "@/lib/platform/config/env";
import { closeDb } from "@/lib/platform/db/client";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { createTestDatabase } from "@/tests/setup/test-database";
import { fillAddressPool } from "./lib/address-pools";
import { machineTicks } from "./lib/measure";
import { merchantWithKeys } from "./lib/merchant-with-keys";

const REQUESTS = Number(process.env.BENCH_REQUESTS || 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 16);
const root = path.resolve(import.meta.dirname, "..");

const database = await createTestDatabase(root);
await migrateDatabase(database.url);
process.env.DATABASE_URL = database.url;
process.env.MASTER_KEY ??= randomBytes(32).toString("base64");
process.env.LOG_LEVEL = "warn";
resetConfig();
const payments = await import("@/app/v1/payments/route");
const links = await import("@/app/v1/payment-links/route");
const ping = await import("@/app/api/ping/route");

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response> | Response;
try {
  const { secrets } = await merchantWithKeys(1000);
  await fillAddressPool("evm", REQUESTS * 2 + 1000);
  let n = 0;
  const post = (p: string, body: unknown) => () =>
    new Request(`http://bench.local${p}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${secrets[n++ % secrets.length]}`,
        "content-type": "application/json",
        "idempotency-key": `bench-${n}`,
      },
      body: JSON.stringify(body),
    });
  const cases: { name: string; handler: Handler; request: () => Request }[] = [
    {
      name: "GET /api/ping (a Response, nothing else)",
      handler: ping.GET,
      request: () => new Request("http://b/ping"),
    },
    {
      name: "POST /v1/payment-links (idempotent)",
      handler: links.POST as Handler,
      request: post("/v1/payment-links", { amount: "25.50", description: "order" }),
    },
    {
      name: "POST /v1/payments (pooled address, idempotent)",
      handler: payments.POST as Handler,
      request: post("/v1/payments", { amount: "25.000000", chain: "eth" }),
    },
  ];
  const run = async (c: (typeof cases)[number], count: number) => {
    let left = count;
    const callers = Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) {
        const res = await c.handler(c.request(), { params: Promise.resolve({}) });
        await res.text();
        if (res.status !== 200) throw new Error(`${c.name}: ${res.status}`);
      }
    });
    await Promise.all(callers);
  };
  console.log(
    `\nbench:handlers — ${REQUESTS} requests per case, ${CONCURRENCY} at once, in process (no Next, no HTTP)`,
  );
  console.log(
    `${"case".padEnd(52)} ${"req/s".padStart(8)} ${"cpu ms".padStart(8)} ` +
      `${"of it sys".padStart(10)} ${"all cpu ms".padStart(11)}`,
  );
  for (const c of cases) {
    await run(c, 300); // warm: JIT, pool connections, prepared statements
    const cpu = process.cpuUsage();
    const machine = machineTicks();
    const started = performance.now();
    await run(c, REQUESTS);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000 / REQUESTS;
    const systemMs = used.system / 1000 / REQUESTS;
    const allMs = ((machineTicks() - machine) * 10) / REQUESTS;
    console.log(
      `${c.name.padEnd(52)} ${(REQUESTS / seconds).toFixed(0).padStart(8)} ${cpuMs.toFixed(2).padStart(8)} ` +
        `${systemMs.toFixed(2).padStart(10)} ${allMs.toFixed(2).padStart(11)}`,
    );
  }
  console.log(
    "(cpu ms: this process per request, of it sys: in the kernel (its socket writes); " +
      "all cpu ms: the whole machine, PostgreSQL included)",
  );
} finally {
  await closeDb();
  await database.drop();
}
