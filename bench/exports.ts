// `npm run bench:exports`: one web instance over a merchant with BENCH_PAYMENTS (default 1,000,000) payments,
// each with an order number in metadata, a deposit address and one deposit: the CSV export's rows per second and
// the web's peak memory above idle while it streams, then the latency (p50, p99 of BENCH_SAMPLES sequential
// requests) of a search by metadata value, deposit address and transaction hash, and of filtered list pages.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { resetConfig } from "@/lib/platform/config/env";
import { closeDb, getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { ensureNextBuild } from "@/scripts/lib/ensure-build";
import { spawnWebServer } from "@/scripts/lib/spawn-web";
import { createTestDatabase } from "@/tests/setup/test-database";
import { merchantWithKeys } from "./lib/merchant-with-keys";

const root = path.resolve(import.meta.dirname, "..");
const PAYMENTS = Number(process.env.BENCH_PAYMENTS || 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES || 100);

/** User + system CPU seconds of a process so far (/proc/<pid>/stat, in clock ticks of 1/100 s). */
const cpuSeconds = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

ensureNextBuild(root, (line) => console.error(line));
const database = await createTestDatabase(root);
await migrateDatabase(database.url);
process.env.DATABASE_URL = database.url;
process.env.MASTER_KEY ??= randomBytes(32).toString("base64");
resetConfig();
const server = await spawnWebServer(root, {
  DATABASE_URL: database.url,
  MASTER_KEY: process.env.MASTER_KEY,
  LOG_LEVEL: "warn",
});
try {
  // Enough keys that the 60 requests a minute of one key never bind.
  const { merchantId, secrets } = await merchantWithKeys(Math.ceil((SAMPLES * 4) / 50) + 4);
  const seeded = Date.now();
  // In chunks: one statement per 50,000 rows stays within the pool's statement timeout, indexes and all.
  for (let from = 1; from <= PAYMENTS; from += 50_000) {
    const to = Math.min(PAYMENTS, from + 49_999);
    await seedPayments(merchantId, from, to);
  }
  await query(getDb(), "analyze");
  console.log(`seeded ${PAYMENTS} payments in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
  await closeDb();

  let k = 0;
  const get = (p: string) =>
    fetch(`${server.url}${p}`, { headers: { authorization: `Bearer ${secrets[k++ % secrets.length]}` } });
  await (await get("/v1/payments?limit=1")).text(); // warm

  // The export, read as fast as the client can, the web's RSS sampled every 50 ms.
  const idle = rssKb(server.pid);
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKb(server.pid));
  }, 50);
  const started = performance.now();
  const cpuBefore = cpuSeconds(server.pid);
  const clientBefore = process.cpuUsage();
  const reply = await get("/v1/exports/payments");
  let rows = -1; // the header
  const reader = reply.body!.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read())
    for (let at = part.value.indexOf(10); at !== -1; at = part.value.indexOf(10, at + 1)) rows++;
  const seconds = (performance.now() - started) / 1000;
  const webCpu = cpuSeconds(server.pid) - cpuBefore;
  const client = process.cpuUsage(clientBefore);
  const clientCpu = (client.user + client.system) / 1e6;
  clearInterval(sampler);
  console.log(
    `export: ${rows} rows in ${seconds.toFixed(1)} s = ${Math.round(rows / seconds)} rows/s; ` +
      `web RSS idle ${Math.round(idle / 1024)} MB, peak ${Math.round(peak / 1024)} MB ` +
      `(+${Math.round((peak - idle) / 1024)} MB); web CPU ${webCpu.toFixed(1)} s ` +
      `(${Math.round((100 * webCpu) / seconds)} % of a core), the reading client's ${clientCpu.toFixed(1)} s`,
  );

  const latency = async (name: string, pathOf: (i: number) => string) => {
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const at = performance.now();
      const r = await get(pathOf(i));
      const body = (await r.json()) as { data?: unknown[] };
      if (r.status !== 200 || !body.data?.length) throw new Error(`${name}: ${r.status} ${JSON.stringify(body)}`);
      times.push(performance.now() - at);
    }
    times.sort((a, b) => a - b);
    console.log(`${name}: p50 ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms`);
  };
  const pick = (i: number) => 1 + ((i * 7919) % PAYMENTS);
  const md5 = (text: string) => createHash("md5").update(text).digest("hex");
  const hashOf = (g: number) => `0x${md5(`tx${g}`)}${md5(`t${g}`)}`;
  const addressOf = (g: number) => `0x${md5(String(g))}`;
  await latency("search by metadata value", (i) => `/v1/search?query=ORD-${pick(i)}`);
  await latency("search by deposit address", (i) => `/v1/search?query=${addressOf(pick(i))}`);
  await latency(
    "search by transaction hash",
    (i) => `/v1/search?query=${hashOf(3 * (pick(i) % Math.floor(PAYMENTS / 3 - 1)) + 1)}`,
  );
  await latency(
    "list page: status + chain + created range",
    () => "/v1/payments?status=confirmed&chain=eth&created[gte]=2020-01-01&limit=20",
  );
  await latency("list page: metadata[order_id]", (i) => `/v1/payments?metadata[order_id]=ORD-${pick(i)}`);
} finally {
  await server.stop();
  await database.drop();
}

/** Payments `from`..`to` of the bench's merchant, and a deposit for every third. */
async function seedPayments(merchantId: string, from: number, to: number) {
  await query(
    getDb(),
    `insert into payments (id, merchant_id, mode, status, chain, amount_units, deposit_address, description, metadata,
       created_at, expires_at)
     select 'pay_b' || lpad(g::text, 12, '0'), $1, 'sandbox',
       (array['awaiting_payment','confirmed','expired'])[1 + g % 3], (array['eth','tron','bnb'])[1 + (g / 3) % 3],
       1000000 + g, '0x' || substr(md5(g::text), 1, 40), 'order ' || g, jsonb_build_object('order_id', 'ORD-' || g),
       now() - make_interval(secs => g), now() + interval '30 minutes'
     from generate_series($2::int, $3::int) g`,
    [merchantId, from, to],
  );
  await query(
    getDb(),
    `insert into deposits (id, payment_id, merchant_id, mode, chain, kind, status, tx_hash, log_index, position,
       block_number, block_hash, block_time, from_address, to_address, raw_amount, amount_units, credited_at)
     select 'dep_b' || g, 'pay_b' || lpad(g::text, 12, '0'), $1, 'sandbox', 'eth', 'payment', 'credited',
       '0x' || md5('tx' || g) || md5('t' || g), 0, 0, g, '0x' || md5('b' || g) || md5('c' || g), now(),
       '0x' || substr(md5('from' || g), 1, 40), '0x' || substr(md5(g::text), 1, 40), 1000000, 1000000, now()
     from generate_series($2::int, $3::int) g where g % 3 = 1`,
    [merchantId, from, to],
  );
}
