// Internal to `npm start`: runs the sandbox chains (one anvil per EVM chain), registers each in the
// database (so web and worker processes find them) and restarts any that dies.
// Reports the chains over IPC; stops them on SIGTERM or when the parent goes away.
import { config } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { registerSandboxChain } from "@/lib/chains/register-sandbox-chain";
import { EVM_SANDBOX, startEvmSandboxChain, type EvmSandboxChain, type SandboxChainInfo } from "@/sandbox/evm/evm-sandbox";
import type { RunningAnvil } from "@/sandbox/evm/anvil";
import { onShutdown } from "./lib/shutdown";

const { dataDir } = config();
const blockTime = Number(process.env.SANDBOX_BLOCK_TIME || 1);
const running = new Map<EvmSandboxChain, RunningAnvil>();
let stopping = false;
// The tables may not exist yet on a first start: migrations are idempotent and serialized by a lock.
const migrated = migrateDatabase(process.env.DATABASE_URL!);

async function run(chain: EvmSandboxChain): Promise<SandboxChainInfo> {
  const { info, anvil } = await startEvmSandboxChain(dataDir, chain, { blockTime });
  running.set(chain, anvil);
  await migrated;
  await registerSandboxChain(getDb(), { chain, rpcUrl: info.rpcUrl, chainId: info.chainId, tokenAddress: info.token, decimals: info.decimals, blockTimeMs: Math.round(blockTime * 1000), emulated: false });
  anvil.process.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(`[chains] ${chain} anvil exited (${signal ?? code}); restarting from its saved state`);
    setTimeout(() => void run(chain).catch((err: unknown) => console.error(`[chains] ${chain} restart failed: ${String(err)}`)), 1_000);
  });
  return info;
}

const chains = await Promise.all((Object.keys(EVM_SANDBOX) as EvmSandboxChain[]).map(run));
process.send?.({ type: "ready", chains });
onShutdown(async () => {
  stopping = true;
  await Promise.all([...running.values()].map((a) => a.stop()));
});
