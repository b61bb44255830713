// `npm run bench:chains`: (a) deposit mined → payment pending latency, p50/p95 over BENCH_PAYMENTS (100)
// payments per chain, on 1 s sandbox chains watched by a real worker process; (b) watcher scan cost per
// block with 1,000 token transfers per block while 10k and then 100k payments are open; (c) the
// memory (PSS) of the whole stack started by `npm start`; (d) on the emulated tron and solana, the
// watcher's detection cost per scan and per block while 1k and then 100k payments are open
// (BENCH_DETECTION_OPEN), solana in both SOLANA_DETECTION modes. (a) covers all five chains.
// BENCH_ONLY=a,b,c,d picks parts; BENCH_CHAINS=tron,solana limits (a) and (d) to some chains.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sandboxChainConfigs } from "@/lib/chains/chain-config";
import { closeDb, getDb } from "@/lib/platform/db/client";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { query } from "@/lib/platform/db/query";
import { createMerchant } from "@/lib/identity/merchants/create-merchant";
import { spawnWorker } from "@/scripts/lib/spawn-worker";
import { createTestDatabase } from "@/tests/setup/test-database";
import { measureDepositLatency } from "./chains/deposit-latency";
import { measureScanCost } from "./chains/scan-cost";
import { measureStackMemory } from "./chains/stack-memory";
import { measureDetectionCost } from "./chains/detection-cost";
import { SupervisedProcess } from "@/scripts/lib/supervisor";
import { fmt } from "./chains/stats";

const root = path.resolve(import.meta.dirname, "..");
const only = new Set((process.env.BENCH_ONLY || "a,b,c,d").split(","));
const PAYMENTS = Number(process.env.BENCH_PAYMENTS || 100);
const BLOCK_TIME = Number(process.env.SANDBOX_BLOCK_TIME || 1);

const database = await createTestDatabase(root);
await migrateDatabase(database.url);
Object.assign(process.env, {
  DATABASE_URL: database.url,
  MASTER_KEY: randomBytes(32).toString("base64"),
  LOG_LEVEL: "error",
});
const chainDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-bench-chains-"));
const { merchant } = await createMerchant(getDb(), { name: "Bench", email: "bench@example.com" });
const owner = { merchantId: merchant.id, mode: "sandbox" as const };

try {
  const needsChains = only.has("a") || only.has("d");
  const stops: (() => Promise<void>)[] = [];
  if (needsChains) {
    // The chains run in their own process, as under `npm start` (the emulated chains' facades are
    // JavaScript: in this process they would compete with the measuring).
    const chains = new SupervisedProcess("sandbox chains", path.join(root, "scripts/start-chains.ts"), {
      ...process.env,
      DATA_DIR: chainDir,
      SANDBOX_BLOCK_TIME: String(BLOCK_TIME),
    });
    stops.push(() => chains.stop());
    await chains.ready;
  }
  try {
    const configs = needsChains ? await sandboxChainConfigs(getDb(), { fresh: true }) : [];
    if (only.has("a")) {
      const worker = await spawnWorker(root, {
        WORKER_ROLES: "watchers",
        LOG_LEVEL: process.env.BENCH_WORKER_LOG_LEVEL || "error",
      });
      try {
        console.log(
          `(a) deposit mined → pending, ${PAYMENTS} payments per chain; EVM and tron ${BLOCK_TIME} s blocks, ` +
            "solana 400 ms slots (target p95 ≤ one interval + 300 ms)",
        );
        // Five chains at once, a transfer every 150 ms on each (several per block).
        const chosen = process.env.BENCH_CHAINS
          ? configs.filter((c) => process.env.BENCH_CHAINS!.split(",").includes(c.chain))
          : configs;
        const figures = await Promise.all(chosen.map((c) => measureDepositLatency(c, owner, PAYMENTS, 150)));
        for (const f of figures) {
          console.log(
            `  ${f.chain.padEnd(8)} n=${f.n}  mined→pending p50 ${fmt(f.minedToPending.p50)}, ` +
              `p95 ${fmt(f.minedToPending.p95)}, max ${fmt(f.minedToPending.max)}   ` +
              `sent→pending p50 ${fmt(f.sentToPending.p50)}, p95 ${fmt(f.sentToPending.p95)}`,
          );
        }
      } finally {
        await worker.stop();
      }
    }
    if (only.has("d")) {
      const sizes = (process.env.BENCH_DETECTION_OPEN || "1000,100000").split(",").map(Number);
      console.log(
        `(d) detection cost on the emulated chains while ${sizes.join(", then ")} payments are open (10 paid ` +
          "meanwhile); solana in both SOLANA_DETECTION modes (target, " +
          "blocks: per slot at the largest ≤ 1.5× the smallest, ≤ 50 ms)",
      );
      const chosen = (c: { chain: string }) =>
        !process.env.BENCH_CHAINS || process.env.BENCH_CHAINS.split(",").includes(c.chain);
      for (const config of configs.filter((c) => c.emulated && chosen(c))) {
        const modes = config.family === "solana" ? (["accounts", "blocks"] as const) : ([null] as const);
        for (const open of sizes)
          for (const mode of modes) {
            const f = await measureDetectionCost(mode ? { ...config, solanaDetection: mode } : config, owner, open, 10);
            console.log(
              `  ${`${f.chain}${mode ? ` ${mode}` : ""}`.padEnd(16)} ${String(open).padStart(7)} open, ` +
                `${f.scans} scans: ${f.msPerScan.mean.toFixed(1)} ms mean, ` +
                `p50 ${f.msPerScan.p50.toFixed(1)}, p95 ${f.msPerScan.p95.toFixed(1)}; ` +
                `${f.msPerBlock === null ? "no block read" : `${f.msPerBlock.toFixed(1)} ms per block`}; ` +
                `detected ${f.detected}/10`,
            );
          }
      }
    }
  } finally {
    await Promise.all(stops.map((stop) => stop()));
  }

  if (only.has("b")) {
    await query(getDb(), "delete from chain_cursors where chain = 'eth'; ");
    await query(getDb(), "delete from chain_blocks where chain = 'eth'");
    console.log("(b) scan cost per block: 1,000 token transfers per block, 10 of them deposits (target ≤ 50 ms, flat)");
    const rows = await measureScanCost(owner, [10_000, 100_000], {
      transfersPerBlock: 1_000,
      depositsPerBlock: 10,
      blocks: 10,
    });
    for (const r of rows) {
      console.log(
        `  ${String(r.openPayments).padStart(7)} open payments: ${r.msPerBlock.mean.toFixed(1)} ms/block mean, ` +
          `p50 ${r.msPerBlock.p50.toFixed(1)}, max ${r.msPerBlock.max.toFixed(1)} ` +
          `(of which eth_getLogs ≈ ${r.getLogsMs.toFixed(1)} ms)`,
      );
    }
  }

  if (only.has("c")) {
    console.log(
      "(c) memory (PSS: shared pages counted once) of the whole stack started by `npm start`, 10 s after it is up",
    );
    const mem = await measureStackMemory(root, 10_000);
    for (const p of mem.byProcess) console.log(`  ${p.what.padEnd(26)} ×${p.count}  ${p.pssMiB} MiB`);
    console.log(`  total PSS                      ${mem.totalMiB} MiB`);
  }
} finally {
  await closeDb();
  await database.drop();
  fs.rmSync(chainDir, { recursive: true, force: true });
}
process.exit(0);
