// `npm run bench:streams`: what open checkout status streams cost. BENCH_STREAMS (1,000) checkout pages hold
// /api/public/checkout/<id>/events open against one web process (production build); during BENCH_SECONDS
// (20) the bench changes BENCH_CHANGES_PER_S (10) payments a second, as a watcher recording confirmations
// would, then waits 11 s, and prints over the whole window the database's transactions a second
// (pg_stat_database, the bench's own updates subtracted) and the tables read, the web process's CPU (from
// /proc) and how long a change took to reach its page.
import { randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { createPayment } from "@/lib/money-in/payments/create-payment";
import { closeDb, getDb } from "@/lib/platform/db/client";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { offlineEthMerchant } from "./lib/offline-chain";
import { ensureNextBuild } from "@/scripts/lib/ensure-build";
import { spawnWebServer } from "@/scripts/lib/spawn-web";
import { createTestDatabase } from "@/tests/setup/test-database";
import { processTicks } from "./lib/measure";
import { fillAddressPool } from "./lib/address-pools";

const STREAMS = Number(process.env.BENCH_STREAMS || 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS || 20);
const CHANGES_PER_S = Number(process.env.BENCH_CHANGES_PER_S || 10);
const FLUSH_MS = 11_000;

const root = path.resolve(import.meta.dirname, "..");
ensureNextBuild(root);
const database = await createTestDatabase(root);
await migrateDatabase(database.url);
// TRUST_PROXY: each page comes from its own address (X-Forwarded-For), as payers do, so the per-network
// limits (5 streams, 30 page requests a minute) do not refuse the bench's 1,000.
const env = {
  DATABASE_URL: database.url,
  MASTER_KEY: randomBytes(32).toString("base64"),
  LOG_LEVEL: "error",
  TRUST_PROXY: "true",
};
Object.assign(process.env, env);

/** One open page: counts its status frames and remembers when each confirmations count arrived. */
function openStream(base: string, paymentId: string, n: number, onFrame: (id: string, data: string) => void) {
  return new Promise<http.ClientRequest>((resolve, reject) => {
    const req = http.get(
      `${base}/api/public/checkout/${paymentId}/events`,
      { headers: { "X-Forwarded-For": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` }, agent: false },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream ${n}: HTTP ${res.statusCode}`));
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffer += chunk;
          let end = buffer.indexOf("\n\n");
          while (end >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = frame.match(/^event: status\ndata: (.*)$/m)?.[1];
            if (data) onFrame(paymentId, data);
            end = buffer.indexOf("\n\n");
          }
        });
        resolve(req);
      },
    );
    req.on("error", reject);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : Number.NaN;

try {
  const { owner } = await offlineEthMerchant();
  await fillAddressPool("evm", STREAMS);
  const ids: string[] = [];
  for (let i = 0; i < STREAMS; i++)
    ids.push((await createPayment(getDb(), owner, { amount: 10_000_000n, chain: "eth" })).id);

  const web = await spawnWebServer(root, env);
  const stats = new pg.Client({ connectionString: database.url });
  await stats.connect();
  const frames = new Map<string, number>();
  const changedAt = new Map<string, { confirmations: number; at: number }>();
  const latencies: number[] = [];
  const onFrame = (id: string, data: string) => {
    frames.set(id, (frames.get(id) ?? 0) + 1);
    const change = changedAt.get(id);
    if (change && (JSON.parse(data) as { confirmations: number }).confirmations === change.confirmations) {
      latencies.push(performance.now() - change.at);
      changedAt.delete(id);
    }
  };
  const requests: http.ClientRequest[] = [];
  try {
    for (let i = 0; i < STREAMS; i += 50)
      requests.push(
        ...(await Promise.all(ids.slice(i, i + 50).map((id, j) => openStream(web.url, id, i + j, onFrame)))),
      );
    while (frames.size < STREAMS) await new Promise((r) => setTimeout(r, 100));
    // PostgreSQL 15's backends report their counters up to 10 s late (PGSTAT_IDLE_INTERVAL): let the
    // opening's reads land before the window, and the window's before its end is read.
    await new Promise((r) => setTimeout(r, FLUSH_MS));

    const transactions = async () =>
      Number(
        (
          await stats.query<{ n: string }>(
            "select (xact_commit + xact_rollback)::text as n from pg_stat_database where datname = current_database()",
          )
        ).rows[0]!.n,
      );
    const scans = async () =>
      new Map(
        (
          await stats.query<{ relname: string; n: string }>(
            "select relname, (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::text as n from pg_stat_user_tables",
          )
        ).rows.map((r) => [r.relname, Number(r.n)]),
      );
    const beforeScans = await scans();
    const beforeTx = await transactions();
    const beforeCpu = processTicks(web.pid);
    const started = performance.now();
    let changes = 0;
    let missed = 0;
    while (performance.now() - started < SECONDS * 1_000) {
      const id = ids[changes % ids.length]!;
      if (changedAt.has(id)) missed++;
      const { rows } = await stats.query<{ confirmations: number }>(
        "update payments set confirmations = confirmations + 1 where id = $1 returning confirmations",
        [id],
      );
      changedAt.set(id, { confirmations: rows[0]!.confirmations, at: performance.now() });
      changes++;
      const next = started + (changes * 1_000) / CHANGES_PER_S;
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
    const elapsed = (performance.now() - started) / 1_000;
    await new Promise((r) => setTimeout(r, FLUSH_MS));
    const window = elapsed + FLUSH_MS / 1_000;
    const cpuMs = (processTicks(web.pid) - beforeCpu) * 10;
    // Own statements: each update, and the counter reads before and after.
    const tx = (await transactions()) - beforeTx - changes - 1;
    const afterScans = await scans();
    const readTables = [...afterScans]
      .map(([t, n]) => [t, n - (beforeScans.get(t) ?? 0)] as const)
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5);
    console.log(`  tables scanned: ${readTables.map(([t, n]) => `${t} ${n}`).join(", ")}`);
    const sorted = latencies.sort((a, b) => a - b);
    console.log(
      `${STREAMS} open checkout status streams, ${changes} status changes ` +
        `in ${elapsed.toFixed(1)} s, then ${FLUSH_MS / 1_000} s quiet`,
    );
    console.log(`  database transactions/s (the bench's own excluded)  ${(tx / window).toFixed(1)}`);
    console.log(`  per status change                                   ${(tx / changes).toFixed(2)}`);
    console.log(
      `  web CPU                                             ${(cpuMs / window).toFixed(1)} ms/s ` +
        `(${(cpuMs / window / 10).toFixed(1)} % of a core)`,
    );
    console.log(
      `  change → page, ms                                   p50 ${percentile(sorted, 50).toFixed(0)}, ` +
        `p99 ${percentile(sorted, 99).toFixed(0)} (${sorted.length} ` +
        `of ${changes} seen, ${missed + changedAt.size} not)`,
    );
  } finally {
    for (const req of requests) req.destroy();
    await stats.end();
    await web.stop();
  }
} finally {
  await closeDb();
  await database.drop();
}
process.exit(0);
