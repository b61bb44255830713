// Internal to `npm start`: runs the sandbox chains (one anvil per EVM chain) and restarts any that dies.
// Reports the chains over IPC; stops them on SIGTERM or when the parent goes away.
import { config } from "@/lib/config/env";
import { EVM_SANDBOX, startEvmSandboxChain, type EvmSandboxChain, type SandboxChainInfo } from "@/sandbox/evm/evm-sandbox";
import type { RunningAnvil } from "@/sandbox/evm/anvil";
import { onShutdown } from "./lib/shutdown";

const { dataDir } = config();
const blockTime = Number(process.env.SANDBOX_BLOCK_TIME || 1);
const running = new Map<EvmSandboxChain, RunningAnvil>();
let stopping = false;

async function run(chain: EvmSandboxChain): Promise<SandboxChainInfo> {
  const { info, anvil } = await startEvmSandboxChain(dataDir, chain, { blockTime });
  running.set(chain, anvil);
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
