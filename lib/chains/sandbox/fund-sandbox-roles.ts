import type { ChainConfig } from "@/lib/chains/chain-config";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { sandboxChainOps } from "../connect/chain-families";
import type { WalletRole } from "../wallets/wallet-roles";

/**
 * Native coin below which a sandbox role is topped up: 1 ETH (wei), 500 TRX (sun; each TRX top-up of a deposit
 * address gives it a 50 TRX fee limit), 0.5 SOL (lamports). One faucet call gives 1 ETH, 100 TRX or 1 SOL.
 */
const FLOOR = { evm: 10n ** 18n, tron: 500_000_000n, solana: 500_000_000n } as const;
const MAX_CALLS = 6;

export interface SandboxFunding {
  role: WalletRole;
  address: string;
  txHash: string;
  amount: bigint;
}

/**
 * Sandbox only: the service's own signers get native coin from the local chain's faucet whenever they run
 * low, so sweeps, top-ups and payouts can always pay their fees (a live operator funds them; docs/CUSTODY.md).
 * `booked` records each transfer once it has landed (the custody books' funding), before the next one.
 */
export async function fundSandboxRoles(
  config: ChainConfig,
  roles: { role: WalletRole; address: string }[],
  booked: (funding: SandboxFunding) => Promise<unknown>,
): Promise<void> {
  if (config.mode !== "sandbox") throw new Error("fundSandboxRoles is for sandbox chains only");
  const adapter = createChainAdapter(config);
  const ops = await sandboxChainOps(config);
  await Promise.all(
    roles.map(async ({ role, address }) => {
      for (let calls = 0; calls < MAX_CALLS && (await adapter.balances(address)).native < FLOOR[config.family]; calls++)
        await booked({ role, address, ...(await ops.fundNative(address)) });
    }),
  );
}
