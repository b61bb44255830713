import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { registerSandboxChain } from "@/lib/chains/register-sandbox-chain";
import { createPool, type Db } from "@/lib/platform/db/client";
import { EVM_SANDBOX, startEvmSandboxChain, type EvmSandboxChain } from "@/sandbox/evm/evm-sandbox";
import { evmRegistration, solanaRegistration, tronRegistration } from "@/sandbox/registrations";
import { readSolanaSandboxSecret, startSolanaSandbox } from "@/sandbox/solana/solana-sandbox";
import { startTronSandbox } from "@/sandbox/tron/tron-sandbox";

/** Seconds per block (EVM, tron) on the test run's chains: short, so payments confirm in seconds. */
export const TEST_BLOCK_TIME = 0.5;
/** Milliseconds per slot on the test run's solana. */
export const TEST_SLOT_MS = 200;
/**
 * Finality on the run's emulated chains: tron solidifies 6 blocks behind the head (mainnet: 19), solana finalizes
 * 12 slots behind (a cluster: 32), and the service, reading the depth from the registration, confirms at it. The
 * tests wait for what happens (a payment confirmed, a payout settled), not for 10 s of blocks each time; the real
 * depths are the sandboxes' defaults, which `npm start` runs and tests/sandbox/ and tests/start/ check. The
 * browser tests' stack keeps them (`mainnetFinality`): their pages show the payer "n of 19 network confirmations"
 * and mine to finish, and a 2 s confirming window is one a page on a busy machine can pass unseen.
 */
export const TEST_TRON_SOLID_LAG = 6;
export const TEST_SOLANA_FINALITY_DEPTH = 12;

/**
 * The run's sandbox chains, started by the same code as `npm start` (one anvil per EVM chain with its
 * token, the emulated tron and solana) and registered in the run's database, where web and worker
 * processes look them up. Needs MASTER_KEY set (the solana mint authority is stored encrypted).
 */
export async function startTestChains(
  databaseUrl: string,
  opts: { mainnetFinality?: boolean } = {},
): Promise<{ stop(): Promise<void> }> {
  const solidLag = opts.mainnetFinality ? undefined : TEST_TRON_SOLID_LAG;
  const finalityDepth = opts.mainnetFinality ? undefined : TEST_SOLANA_FINALITY_DEPTH;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-test-chains-"));
  const stops: (() => Promise<void>)[] = [];
  const pool = createPool(databaseUrl, 2);
  try {
    const db = drizzle(pool) as Db;
    const evm = (Object.keys(EVM_SANDBOX) as EvmSandboxChain[]).map(async (chain) => {
      const { info, anvil } = await startEvmSandboxChain(dataDir, chain, { blockTime: TEST_BLOCK_TIME });
      stops.push(anvil.stop);
      await registerSandboxChain(db, evmRegistration(info, TEST_BLOCK_TIME * 1000));
    });
    const tron = (async () => {
      const sandbox = await startTronSandbox({ dataDir, blockTime: TEST_BLOCK_TIME, solidLag });
      stops.push(sandbox.stop);
      await registerSandboxChain(db, tronRegistration(sandbox.info));
    })();
    const solana = (async () => {
      const sandbox = await startSolanaSandbox({
        dataDir,
        slotMs: TEST_SLOT_MS,
        finalityDepth,
      });
      stops.push(sandbox.stop);
      await registerSandboxChain(db, solanaRegistration(sandbox.info, readSolanaSandboxSecret(dataDir)));
    })();
    await Promise.all([...evm, tron, solana]);
  } catch (err) {
    await Promise.all(stops.map((stop) => stop()));
    throw err;
  } finally {
    await pool.end();
  }
  return {
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
