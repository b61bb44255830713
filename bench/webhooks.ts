// `npm run bench:webhooks`: sustained webhook deliveries per second to a local receiver with 10 endpoints,
// p95 delay from state change (commit) to first delivery attempt, and the measured spacing of retries
// against 5/10/20/40/80 s. Env: BENCH_PAYMENTS (default 300 → 3,000 deliveries), BENCH_WORKERS (2),
// BENCH_SKIP_SPACING=1 to skip the ~2.5-minute spacing measurement.
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { closeDb, getDb, inTransaction } from "@/lib/platform/db/client";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { createMerchant } from "@/lib/identity/merchants/create-merchant";
import { createPayment } from "@/lib/money-in/payments/create-payment";
import { createWebhookEndpoint } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { RETRY_DELAYS_S } from "@/lib/notify/webhooks/retry-schedule";
import { createTestDatabase } from "@/tests/setup/test-database";

const root = path.resolve(import.meta.dirname, "..");
const PAYMENTS = Number(process.env.BENCH_PAYMENTS || 300);
const WORKERS = Number(process.env.BENCH_WORKERS || 2);
const ENDPOINTS = 10;

const database = await createTestDatabase(root);
await migrateDatabase(database.url);
Object.assign(process.env, {
  DATABASE_URL: database.url,
  MASTER_KEY: randomBytes(32).toString("base64"),
  WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
  LOG_LEVEL: "error",
});

// The receiver: answers 200 at once, except on /flaky where it fails the first five attempts.
const firstArrival = new Map<string, number>(); // event id → first arrival (ms)
const flakyArrivals: number[] = [];
let received = 0;
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const at = Date.now();
    if (req.url === "/flaky") {
      flakyArrivals.push(at);
      res.writeHead(flakyArrivals.length <= 5 ? 500 : 200).end();
      return;
    }
    received += 1;
    const id = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string }).id;
    if (!firstArrival.has(id)) firstArrival.set(id, at);
    res.writeHead(200).end("ok");
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
const port = (receiver.address() as { port: number }).port;

const workers: ChildProcess[] = [];
try {
  const { merchant } = await createMerchant(getDb(), { name: "Bench", email: "bench@example.com" });
  const owner = { merchantId: merchant.id, mode: "sandbox" as const };
  for (let i = 0; i < ENDPOINTS; i++)
    await createWebhookEndpoint(getDb(), owner, { url: `http://127.0.0.1:${port}/hook/${i}` });

  for (let i = 0; i < WORKERS; i++) {
    const child = fork(path.join(root, "scripts/start-worker.ts"), [], {
      execArgv: ["--import", "tsx"],
      env: process.env,
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    await new Promise<void>((r) => child.on("message", (m: { type?: string }) => m?.type === "ready" && r()));
    workers.push(child);
  }

  // State changes: each payment creation commits one event that fans out to 10 deliveries; 8 at a time.
  const committedAt = new Map<string, number>();
  const start = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < PAYMENTS) {
        const i = next++;
        const paymentId = await inTransaction(
          getDb(),
          async (tx) => (await createPayment(tx, owner, { amount: 1_000_000n + BigInt(i) })).id,
        );
        const at = Date.now();
        const [row] = (
          await getDb().$client.query<{ id: string }>("select id from events where object_id = $1", [paymentId])
        ).rows;
        committedAt.set(row!.id, at);
      }
    }),
  );
  const producedS = (Date.now() - start) / 1000;
  const expected = PAYMENTS * ENDPOINTS;
  const deadline = Date.now() + 300_000;
  while (received < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const elapsedS = (Date.now() - start) / 1000;

  const delays = [...committedAt].map(([id, at]) => (firstArrival.get(id) ?? NaN) - at).sort((a, b) => a - b);
  const p = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))]!;
  console.log(
    `\nbench:webhooks — ${PAYMENTS} state changes × ${ENDPOINTS} endpoints = ${expected} deliveries, ` +
      `${WORKERS} worker processes, loopback receiver`,
  );
  const arrivals = [...firstArrival.values()];
  const spanS = (Math.max(...arrivals) - Math.min(...arrivals)) / 1000;
  console.log(
    `state changes committed: ${PAYMENTS} in ${producedS.toFixed(1)} s (${(PAYMENTS / producedS).toFixed(0)}/s, ` +
      `${((PAYMENTS * ENDPOINTS) / producedS).toFixed(0)} deliveries/s offered)`,
  );
  console.log(
    `delivered:               ${received} of ${expected}, all done ${elapsedS.toFixed(1)} s after the first commit`,
  );
  console.log(
    `sustained deliveries/s:  ${(received / elapsedS).toFixed(0)} overall, ` +
      `${(received / Math.max(spanS, 0.001)).toFixed(0)} between first and last arrival (target ≥ 1000/s)`,
  );
  console.log(`commit → first attempt:  p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, max ${delays[delays.length - 1]} ms`);

  if (!process.env.BENCH_SKIP_SPACING) {
    const flaky = await createWebhookEndpoint(getDb(), owner, {
      url: `http://127.0.0.1:${port}/flaky`,
      events: ["payment.awaiting_payment"],
    });
    await inTransaction(getDb(), (tx) => createPayment(tx, owner, { amount: 42_000_000n }));
    console.log(`retry spacing (endpoint ${flaky.row.id} failing 5 times; real schedule, ~155 s)…`);
    const spacingDeadline = Date.now() + 200_000;
    while (flakyArrivals.length < 6 && Date.now() < spacingDeadline) await new Promise((r) => setTimeout(r, 100));
    const gaps = flakyArrivals.slice(1).map((at, i) => (at - flakyArrivals[i]!) / 1000);
    gaps.forEach((g, i) => {
      console.log(
        `  retry ${i + 1}: ${g.toFixed(2)} s after the previous attempt ` +
          `(schedule ${RETRY_DELAYS_S[i]} s, off by ${(g - RETRY_DELAYS_S[i]!).toFixed(2)} s)`,
      );
    });
    const worst = Math.max(...gaps.map((g, i) => Math.abs(g - RETRY_DELAYS_S[i]!)));
    console.log(`worst deviation: ${worst.toFixed(2)} s (target within ±1 s)`);
  }
} finally {
  for (const w of workers) w.kill("SIGTERM");
  await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.once("exit", r)))));
  receiver.close();
  await closeDb();
  await database.drop();
}
