import { createPublicClient, http } from "viem";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { marketFees } from "@/lib/chains/evm/evm-fees";
import { DEFAULT_FEE_LIMIT_SUN } from "@/lib/chains/tron/tron-fees";

/** A token transfer's gas when estimation fails (lib/chains/evm/evm-call.ts `fallbackGas`). */
const EVM_TRANSFER_GAS = 100_000n;
/** Solana: a sweep's two signatures (5,000 lamports each) and a recipient's new token account's rent. */
const SOLANA_TRANSACTION_LAMPORTS = 2n * 5_000n + 2_039_280n;

/**
 * The native coin (wei, sun, lamports) one of a role's transactions may cost at most, at today's fees: below it,
 * the treasury cannot pay a payout nor the sweeper a sweep or a top-up (docs/CUSTODY.md, "Reconciliation").
 * EVM: a token transfer's gas at the driver's max fee for the next blocks; Tron: a TRC-20 transfer's fee limit;
 * Solana: a sweep's fees (the sweeper pays for deposit addresses) plus the rent of a new token account.
 */
export async function gasNeeded(config: ChainConfig): Promise<bigint> {
  switch (config.family) {
    case "evm": {
      const client = createPublicClient({ transport: http(config.rpcUrl, { retryCount: 1, timeout: 15_000 }) });
      return EVM_TRANSFER_GAS * (await marketFees(client)).maxFeePerGas;
    }
    case "tron":
      return DEFAULT_FEE_LIMIT_SUN;
    case "solana":
      return SOLANA_TRANSACTION_LAMPORTS;
  }
}
