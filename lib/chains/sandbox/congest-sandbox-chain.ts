import type { Db } from "@/lib/platform/db/client";
import { onSandboxChain, requireSandboxChain } from "./require-sandbox-chain";

/**
 * POST /v1/sandbox/chains/:chain/congest (EVM chains): sets the next block's base fee, from which EIP-1559
 * moves it again block by block (an empty block lowers it by 1/8). Anvil refuses a transaction priced under
 * it (maxFeePerGas below the base fee) and drops one already in its pool at the next block.
 */
export async function prepareCongest(db: Db, chain: string, baseFeeWei: bigint) {
  const { ops } = await requireSandboxChain(db, chain);
  return async () => {
    const { baseFeePerGas, head } = await onSandboxChain(chain, () => ops.congest(baseFeeWei));
    return {
      object: "sandbox_chain_congested" as const,
      chain,
      base_fee_per_gas: baseFeePerGas.toString(),
      head,
    };
  };
}
