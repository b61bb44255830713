import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { registerSandboxChain } from "@/lib/chains/register-sandbox-chain";
import { createPool, type Db } from "@/lib/db/client";
import type { RunningAnvil } from "@/sandbox/evm/anvil";
import { EVM_SANDBOX, startEvmSandboxChain, type EvmSandboxChain } from "@/sandbox/evm/evm-sandbox";

/** Seconds per block on the test run's chains: short, so payments confirm in about two seconds. */
export const TEST_BLOCK_TIME = 0.5;

/**
 * The run's sandbox chains, started by the same code as `npm start` (one anvil per EVM chain with its
 * token) and registered in the run's database, where web and worker processes look them up.
 */
export async function startTestChains(databaseUrl: string): Promise<{ stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-test-chains-"));
  const anvils: RunningAnvil[] = [];
  const pool = createPool(databaseUrl, 2);
  try {
    const db = drizzle(pool) as Db;
    for (const chain of Object.keys(EVM_SANDBOX) as EvmSandboxChain[]) {
      const { info, anvil } = await startEvmSandboxChain(dataDir, chain, { blockTime: TEST_BLOCK_TIME });
      anvils.push(anvil);
      await registerSandboxChain(db, { chain, rpcUrl: info.rpcUrl, chainId: info.chainId, tokenAddress: info.token, decimals: info.decimals, blockTimeMs: TEST_BLOCK_TIME * 1000, emulated: false });
    }
  } finally {
    await pool.end();
  }
  return {
    async stop() {
      await Promise.all(anvils.map((a) => a.stop()));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
