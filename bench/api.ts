// `npm run bench:api`: throughput, latency and CPU per request on one web instance and a fresh database:
// a trivial Next route vs. the /v1 pipeline (auth, rate limit, scope, zod, Idempotency-Key, transaction),
// payment creation (a pooled deposit address), and a 100-item page of a 100k-payment table; plus p99 at a
// fixed 100 requests/s, evenly spaced (bench/lib/paced-load.ts), with what stalled the web process meanwhile.
// Env: BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_KEYS, BENCH_RATE, BENCH_ONLY=<case prefix>.
import { randomBytes } from "node:crypto";
import path from "node:path";
import type autocannon from "autocannon";
import { resetConfig } from "@/lib/platform/config/env";
import { closeDb, getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { ensureNextBuild } from "@/scripts/lib/ensure-build";
import { spawnWebServer } from "@/scripts/lib/spawn-web";
import { createTestDatabase } from "@/tests/setup/test-database";
import { freePort } from "@/lib/platform/db/embedded";
import { measure, printTable, type Figures } from "./lib/measure";
import { fillAddressPool } from "./lib/address-pools";
import { merchantWithKeys } from "./lib/merchant-with-keys";
import { measurePaced, type PacedRequest } from "./lib/paced-load";
import { watchWebPauses, type WebPauses } from "./lib/web-pauses";
import { checkpointCounter } from "./lib/pg-checkpoints";

const root = path.resolve(import.meta.dirname, "..");
const DURATION_S = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
// Enough keys that the 60/min per-key limit never binds across all cases.
const KEYS = Number(process.env.BENCH_KEYS || 3000);
const SEEDED_PAYMENTS = 100_000;
const RATE = Number(process.env.BENCH_RATE || 100);
const POOLED_ADDRESSES = Number(process.env.BENCH_POOLED_ADDRESSES || 20_000);

ensureNextBuild(root, (line) => console.error(line));
const database = await createTestDatabase(root);
await migrateDatabase(database.url);
process.env.DATABASE_URL = database.url;
process.env.MASTER_KEY ??= randomBytes(32).toString("base64");
resetConfig(); // in-process getDb() and masterKey() read the two lines above
const metricsPort = await freePort();
const server = await spawnWebServer(root, {
  DATABASE_URL: database.url,
  MASTER_KEY: process.env.MASTER_KEY,
  LOG_LEVEL: "warn",
  // Its event-loop delay and garbage collection, read around each fixed-rate case (bench/lib/web-pauses.ts).
  WEB_METRICS_PORT: String(metricsPort),
});
const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;

try {
  const { merchantId, secrets } = await merchantWithKeys(KEYS);
  // 100k payments of this merchant, one a second back in time, so the list reads a page of a big table.
  await query(
    getDb(),
    `insert into payments (id, merchant_id, mode, status, amount_units, metadata, created_at, expires_at)
     select 'pay_seed' || lpad(g::text, 16, '0'), $1, 'sandbox', 'awaiting_payment', 1000000 + g, '{}',
       now() - make_interval(secs => g), now() + interval '30 minutes'
     from generate_series(1, $2::int) g`,
    [merchantId, SEEDED_PAYMENTS],
  );
  await query(getDb(), "analyze payments");
  // The deposit addresses a worker would have derived ahead (the web derives none): more than the run takes.
  await fillAddressPool("evm", POOLED_ADDRESSES);
  await fillAddressPool("tron", 2_000);
  await closeDb();

  let n = 0;
  const authed = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${secrets[n++ % secrets.length]}`,
    ...extra,
  });
  const postRequest = (p: string, body: () => unknown) => (): PacedRequest => ({
    method: "POST",
    path: p,
    headers: authed({ "content-type": "application/json", "idempotency-key": `bench-${process.pid}-${n}` }),
    body: JSON.stringify(body()),
  });
  const getRequest = (p: string) => (): PacedRequest => ({ method: "GET", path: p, headers: authed() });
  const load = (request: () => PacedRequest): autocannon.Request[] => [
    { setupRequest: (req) => ({ ...req, ...request() }) as autocannon.Request },
  ];

  type Case = { name: string; opts: autocannon.Options } | { name: string; paced: () => PacedRequest };
  const cases: Case[] = [
    { name: "GET /api/ping (trivial Next route)", opts: { url: `${server.url}/api/ping` } },
    {
      name: "POST /v1/payment-links (full pipeline, idempotent)",
      opts: {
        url: server.url,
        requests: load(postRequest("/v1/payment-links", () => ({ amount: "25.50", description: "order" }))),
      },
    },
    {
      name: "POST /v1/payments (pooled address, idempotent)",
      opts: {
        url: server.url,
        requests: load(postRequest("/v1/payments", () => ({ amount: "25.000000", chain: "eth" }))),
      },
    },
    {
      name: `GET /v1/payments?limit=100 (${SEEDED_PAYMENTS / 1000}k rows)`,
      opts: { url: server.url, requests: load(getRequest("/v1/payments?limit=100")) },
    },
    // Fixed rate: evenly spaced, open-loop (bench/lib/paced-load.ts), latency from when each request was due.
    // The floor of the fixed-rate figures: what the machine, Next and the load generator add to any request.
    { name: `GET /api/ping at a fixed ${RATE} req/s`, paced: getRequest("/api/ping") },
    {
      name: `POST /v1/payments at a fixed ${RATE} req/s`,
      paced: postRequest("/v1/payments", () => ({ amount: "25.000000", chain: "tron" })),
    },
    { name: `GET /v1/payments?limit=100 at a fixed ${RATE} req/s`, paced: getRequest("/v1/payments?limit=100") },
  ];
  const selected = cases.filter((c) => !process.env.BENCH_ONLY || c.name.startsWith(process.env.BENCH_ONLY));

  // Warm every path (JIT, route compilation, pool connections) before measuring.
  const loadOf = (c: Case): autocannon.Options => ("opts" in c ? c.opts : { url: server.url, requests: load(c.paced) });
  for (const c of selected) await measure("warm-up", server.pid, { ...loadOf(c), connections: 8, amount: 300 });
  const results: Figures[] = [];
  const pauses: { name: string; seen: WebPauses; checkpoints: number }[] = [];
  const checkpoints = await checkpointCounter(getDb());
  for (const c of selected) {
    if ("opts" in c) {
      results.push(await measure(c.name, server.pid, { connections: CONNECTIONS, duration: DURATION_S, ...c.opts }));
      continue;
    }
    const seen = await watchWebPauses(metricsUrl);
    const checkpointsBefore = await checkpoints();
    const request = c.paced;
    results.push(
      await measurePaced(c.name, server.pid, { origin: server.url, rate: RATE, durationS: DURATION_S, request }),
    );
    pauses.push({ name: c.name, seen: await seen(), checkpoints: (await checkpoints()) - checkpointsBefore });
  }

  console.log(
    `\nbench:api — ${DURATION_S}s per case, ${CONNECTIONS} connections unless fixed-rate, ` +
      `${KEYS} keys, one web instance, ${process.env.REDIS_URL ? "Redis" : "Postgres"} rate-limit store`,
  );
  printTable(results);
  for (const { name, seen, checkpoints } of pauses)
    console.log(
      `${name}: web event-loop intervals p99 ${seen.loopDelayP99Ms.toFixed(1)} ms, max ` +
        `${seen.loopDelayMaxMs.toFixed(1)} ms (min ${seen.loopDelayMinMs.toFixed(1)} ms: the sampling interval); ` +
        `GC ${seen.gcMs.toFixed(0)} ms (${seen.majorGcs} major); PostgreSQL checkpoints ${checkpoints}`,
    );
  const byPrefix = (p: string) => results.find((r) => r.name.startsWith(p));
  const trivial = byPrefix("GET /api/ping");
  const ratio = (p: string, label: string) => {
    const r = byPrefix(p);
    if (trivial && r)
      console.log(`${label} / trivial throughput: ${((r.rps / trivial.rps) * 100).toFixed(1)} % (target ≥ 60 %)`);
  };
  ratio("POST /v1/payment-links", "pipeline POST");
  ratio("POST /v1/payments (", "POST /v1/payments");
  const floor = byPrefix("GET /api/ping at");
  if (floor) console.log(`${floor.name}: p99 ${floor.p99} ms (the floor: the trivial route at the same rate)`);
  for (const p of ["POST /v1/payments at", "GET /v1/payments?limit=100 at"]) {
    const r = byPrefix(p);
    if (r) console.log(`${r.name}: p99 ${r.p99} ms (target ≤ 50 ms)`);
  }
  const [waited] = await query<{ n: number }>(
    getDb(),
    "select count(*)::int as n from payments where status = 'intent_created'",
  );
  if (waited!.n) console.log(`${waited!.n} payments found their address pool empty: raise BENCH_POOLED_ADDRESSES`);
} finally {
  await server.stop();
  await closeDb();
  await database.drop();
}
