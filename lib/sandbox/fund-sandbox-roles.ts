import type { ChainConfig } from "@/lib/chains/chain-config";
import { createChainAdapter } from "@/lib/chains/adapters/create-adapter";
import { sandboxChainOps } from "./sandbox-chain-ops";

/** Native coin below which a sandbox role is topped up at start: 1 ETH (wei), 50 TRX (sun), 0.5 SOL (lamports). */
const FLOOR = { evm: 10n ** 18n, tron: 50_000_000n, solana: 500_000_000n } as const;

/**
 * Sandbox only: the service's own signers get native coin from the local chain's faucet, so sweeps and
 * payouts can pay their fees (a live operator funds them; docs/CUSTODY.md).
 */
export async function fundSandboxRoles(config: ChainConfig, addresses: string[]): Promise<void> {
  if (config.mode !== "sandbox") throw new Error("fundSandboxRoles is for sandbox chains only");
  const adapter = createChainAdapter(config);
  const ops = sandboxChainOps(config);
  for (const address of addresses) {
    const { native } = await adapter.balances(address);
    if (native < FLOOR[config.family]) await ops.fund(address, 0n);
  }
}
