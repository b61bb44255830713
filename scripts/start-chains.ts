// Internal to `npm start`: runs the sandbox chains — one anvil per EVM chain, the emulated tron (anvil
// behind a Tron API facade) and solana (LiteSVM behind a JSON-RPC facade) — registers each in the
// database (so web and worker processes find them) and restarts an EVM anvil that dies. Reports the chains
// over IPC; stops them on SIGTERM or when the parent goes away.
import { getDb } from "@/lib/platform/db/client";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { registerSandboxChain, type SandboxChainRegistration } from "@/lib/chains/register-sandbox-chain";
import { EVM_SANDBOX, startEvmSandboxChain, type EvmSandboxChain } from "@/sandbox/evm/evm-sandbox";
import type { RunningAnvil } from "@/sandbox/evm/anvil";
import { evmRegistration, solanaRegistration, tronRegistration } from "@/sandbox/registrations";
import { readSolanaSandboxSecret, startSolanaSandbox } from "@/sandbox/solana/solana-sandbox";
import { startTronSandbox } from "@/sandbox/tron/tron-sandbox";
import { onShutdown } from "./lib/shutdown";
import { startupConfig } from "./lib/startup-config";

const { dataDir, databaseUrl, sandboxBlockTimeS: blockTime } = startupConfig();
const running = new Map<EvmSandboxChain, RunningAnvil>();
const stoppers: (() => Promise<void>)[] = [];
let stopping = false;
// The tables may not exist yet on a first start: migrations are idempotent and serialized by a lock.
const migrated = migrateDatabase(databaseUrl!);

async function register(reg: SandboxChainRegistration): Promise<SandboxChainRegistration> {
  await migrated;
  await registerSandboxChain(getDb(), reg);
  return reg;
}

async function runEvm(chain: EvmSandboxChain): Promise<SandboxChainRegistration> {
  const { info, anvil } = await startEvmSandboxChain(dataDir, chain, { blockTime });
  running.set(chain, anvil);
  anvil.process.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(`[chains] ${chain} anvil exited (${signal ?? code}); restarting from its saved state`);
    setTimeout(
      () =>
        void runEvm(chain).catch((err: unknown) => console.error(`[chains] ${chain} restart failed: ${String(err)}`)),
      1_000,
    );
  });
  return register(evmRegistration(info, Math.round(blockTime * 1000)));
}

async function runTron(): Promise<SandboxChainRegistration> {
  const tron = await startTronSandbox({ dataDir, blockTime });
  stoppers.push(tron.stop);
  return register(tronRegistration(tron.info));
}

async function runSolana(): Promise<SandboxChainRegistration> {
  const solana = await startSolanaSandbox({ dataDir });
  stoppers.push(solana.stop);
  return register(solanaRegistration(solana.info, readSolanaSandboxSecret(dataDir)));
}

const chains = await Promise.all([
  ...(Object.keys(EVM_SANDBOX) as EvmSandboxChain[]).map(runEvm),
  runTron(),
  runSolana(),
]);
process.send?.({
  type: "ready",
  chains: chains.map(({ chain, rpcUrl, chainId, tokenAddress, decimals, emulated }) => ({
    chain,
    rpcUrl,
    chainId,
    token: tokenAddress,
    decimals,
    emulated,
  })),
});
onShutdown(async () => {
  stopping = true;
  await Promise.all([...[...running.values()].map((a) => a.stop()), ...stoppers.map((stop) => stop())]);
});
