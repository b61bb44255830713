// `npm run bench:deposits`: deposit addresses at scale. (a) Detection per block with 1,000 and then 1,000,000 active
// deposit addresses of a family (evm, tron, solana): a block of BENCH_TRANSFERS (500) token transfers, 20 of them
// to deposit addresses, matched on the watch-key index, recorded and credited (bench/deposits/detection.ts); the
// target is the 1M figure ≤ 1.5× the 1k one. (b) POST /v1/deposit_addresses at a fixed 100 requests/s (evenly
// spaced, bench/lib/paced-load.ts) on one web instance with 1M addresses in the table: p99 (target ≤ 50 ms).
// BENCH_ONLY=a,b picks parts; BENCH_ADDRESSES sets the large count.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { refillDepositAddressPool } from "@/lib/chains/wallets/refill-deposit-address-pool";
import { createMerchant } from "@/lib/identity/merchants/create-merchant";
import { resetConfig } from "@/lib/platform/config/env";
import { closeDb, getDb } from "@/lib/platform/db/client";
import { freePort } from "@/lib/platform/db/embedded";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { ensureNextBuild } from "@/scripts/lib/ensure-build";
import { spawnWebServer } from "@/scripts/lib/spawn-web";
import { createTestDatabase } from "@/tests/setup/test-database";
import { addAddresses, detectionRounds } from "./deposits/detection";
import { printTable } from "./lib/measure";
import { merchantWithKeys } from "./lib/merchant-with-keys";
import { measurePaced } from "./lib/paced-load";
import { percentile } from "./chains/stats";

const root = path.resolve(import.meta.dirname, "..");
const only = new Set((process.env.BENCH_ONLY || "a,b").split(","));
const LARGE = Number(process.env.BENCH_ADDRESSES || 1_000_000);
const SMALL = 1_000;
const TRANSFERS = Number(process.env.BENCH_TRANSFERS || 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 60);
const FAMILIES = [
  ["evm", "polygon"],
  ["tron", "tron"],
  ["solana", "solana"],
] as const;

if (only.has("b")) ensureNextBuild(root, (line) => console.error(line));
const database = await createTestDatabase(root);
await migrateDatabase(database.url);
process.env.DATABASE_URL = database.url;
process.env.MASTER_KEY ??= randomBytes(32).toString("base64");
process.env.LOG_LEVEL = "error";
resetConfig();

try {
  const { merchant } = await createMerchant(getDb(), { name: "Bench", email: "bench@example.com" });
  const rows: string[] = [];
  for (const [family, chain] of FAMILIES) {
    await addAddresses(merchant.id, family, chain, 1, SMALL);
    if (!only.has("a")) continue;
    const scope = {
      mode: "sandbox" as const,
      chain,
      decimals: 6,
      confirmations: { threshold: 2, required: 4 },
      lateWindowMs: 7 * 86_400_000,
    };
    const opts = { rounds: ROUNDS, transfers: TRANSFERS, hits: 20 };
    await detectionRounds(scope, family, SMALL, { ...opts, rounds: 10 }); // warm-up
    const small = await detectionRounds(scope, family, SMALL, opts);
    const started = Date.now();
    await addAddresses(merchant.id, family, chain, SMALL + 1, LARGE);
    const filled = (Date.now() - started) / 1000;
    await detectionRounds(scope, family, LARGE, { ...opts, rounds: 10 });
    const large = await detectionRounds(scope, family, LARGE, opts);
    const p50 = (t: number[]) => percentile(t, 50);
    rows.push(
      `  ${family.padEnd(7)} ${SMALL.toLocaleString("en")} addresses: p50 ${p50(small).toFixed(2)} ms, p95 ` +
        `${percentile(small, 95).toFixed(2)} ms   ${LARGE.toLocaleString("en")}: p50 ${p50(large).toFixed(2)} ms, ` +
        `p95 ${percentile(large, 95).toFixed(2)} ms   ratio ${(p50(large) / p50(small)).toFixed(2)}× (target ≤ 1.5×)` +
        `   (${LARGE - SMALL} added in ${filled.toFixed(0)} s)`,
    );
  }
  if (only.has("a")) {
    console.log(`(a) detection per block: ${TRANSFERS} transfers, 20 to deposit addresses, ${ROUNDS} rounds`);
    for (const row of rows) console.log(row);
  }

  if (only.has("b")) {
    const RATE = 100;
    const SECONDS = Number(process.env.BENCH_SECONDS || 10);
    await refillDepositAddressPool(getDb(), "sandbox", "evm", RATE * (SECONDS + 2) + 200, "deposit");
    const { secrets } = await merchantWithKeys(Math.ceil((RATE * SECONDS) / 50) + 10);
    await closeDb();
    const metricsPort = await freePort();
    const server = await spawnWebServer(root, {
      DATABASE_URL: database.url,
      MASTER_KEY: process.env.MASTER_KEY!,
      LOG_LEVEL: "warn",
      WEB_METRICS_PORT: String(metricsPort),
    });
    try {
      let n = 0;
      const paced = (name: string, durationS: number) =>
        measurePaced(name, server.pid, { origin: server.url, rate: RATE, durationS, request });
      const request = () => ({
        method: "POST",
        path: "/v1/deposit_addresses",
        headers: { authorization: `Bearer ${secrets[n++ % secrets.length]}`, "content-type": "application/json" },
        body: JSON.stringify({ chain: "polygon", metadata: { n } }),
      });
      // The route's first requests load and compile its code: two seconds of the same load first, not counted.
      await paced("warm-up", 2);
      const figures = await paced(`POST /v1/deposit_addresses at ${RATE}/s`, SECONDS);
      const inTable = only.has("a") ? LARGE : SMALL;
      console.log(`(b) creating deposit addresses with ${inTable.toLocaleString("en")} per family in the table`);
      printTable([figures]);
      console.log(`p99 ${figures.p99} ms (target ≤ 50 ms)`);
    } finally {
      await server.stop();
    }
  }
} finally {
  await closeDb();
  await database.drop();
}
