import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ChainConfig, sandboxChainConfigs } from "@/lib/chains/chain-config";
import { resetConfig } from "@/lib/platform/config/env";
import { closeDb, getDb } from "@/lib/platform/db/client";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { createMerchant } from "@/lib/identity/merchants/create-merchant";
import { spawnWorker } from "@/scripts/lib/spawn-worker";
import { SupervisedProcess } from "@/scripts/lib/supervisor";
import { createTestDatabase } from "@/tests/setup/test-database";
import type { Owner } from "./payments";

export interface SandboxBench {
  /** The sandbox chains BENCH_CHAINS names (all by default). */
  configs: ChainConfig[];
  /** A merchant of its own, in sandbox mode. */
  owner: Owner;
}

export interface SandboxBenchOptions {
  /** Set in this process (and so in the worker's) before anything starts, e.g. SANDBOX_CONFIRMATIONS. */
  env: Record<string, string>;
  /** The worker's WORKER_ROLES. */
  workerRoles: string;
  /** Set only in the worker's environment. */
  workerEnv?: Record<string, string>;
}

/**
 * Runs `body` against a database of its own (migrated), the sandbox chains (1 s EVM blocks) and a real worker
 * process, then stops everything, drops the database and exits.
 */
export async function runSandboxBench(
  root: string,
  opts: SandboxBenchOptions,
  body: (bench: SandboxBench) => Promise<void>,
): Promise<never> {
  const database = await createTestDatabase(root);
  await migrateDatabase(database.url);
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    MASTER_KEY: randomBytes(32).toString("base64"),
    LOG_LEVEL: "error",
    ...opts.env,
  });
  resetConfig();
  const chainDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-bench-"));
  const { merchant } = await createMerchant(getDb(), { name: "Bench", email: "bench@example.com" });
  const chains = new SupervisedProcess("sandbox chains", path.join(root, "scripts/start-chains.ts"), {
    ...process.env,
    DATA_DIR: chainDir,
    SANDBOX_BLOCK_TIME: "1",
  });
  try {
    await chains.ready;
    const worker = await spawnWorker(root, {
      WORKER_ROLES: opts.workerRoles,
      LOG_LEVEL: process.env.BENCH_WORKER_LOG_LEVEL || "error",
      ...opts.workerEnv,
    });
    try {
      const wanted = process.env.BENCH_CHAINS?.split(",");
      const configs = (await sandboxChainConfigs(getDb(), { fresh: true })).filter(
        (c) => !wanted || wanted.includes(c.chain),
      );
      await body({ configs, owner: { merchantId: merchant.id, mode: "sandbox" } });
    } finally {
      await worker.stop();
    }
  } finally {
    await chains.stop();
    await closeDb();
    await database.drop();
    fs.rmSync(chainDir, { recursive: true, force: true });
  }
  process.exit(0);
}
