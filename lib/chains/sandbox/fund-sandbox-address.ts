import { DomainError } from "@/lib/kernel/domain-error";
import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import type { Chain } from "@/lib/chains/chains";
import { addressProblem } from "@/lib/chains/validate-address";
import type { Db } from "@/lib/platform/db/client";
import { formatAmount } from "@/lib/kernel/amount";
import { onSandboxChain, requireSandboxChain } from "./require-sandbox-chain";

/** Per call, so a typo cannot mint absurd sums into a shared sandbox chain. */
export const FAUCET_MAX_UNITS = 1_000_000_000_000n; // 1,000,000 USDT

type FaucetInput = { chain: Chain; address: string; amount: bigint };

/**
 * POST /v1/sandbox/faucet (test USDT and native gas to any address on a sandbox chain): the checks and chain
 * lookup; the returned call makes the transfer, holding no database connection (see ChainCall).
 */
export async function prepareFaucetTransfer(db: Db, input: FaucetInput) {
  const problem = addressProblem(input.chain, input.address);
  if (problem)
    throw new DomainError("invalid_request_error", problem.replace(/^to_address/, "address"), { param: "address" });
  if (input.amount > FAUCET_MAX_UNITS)
    throw new DomainError(
      "invalid_request_error",
      `amount must be at most ${formatAmount(FAUCET_MAX_UNITS)} per faucet call`,
      { param: "amount" },
    );
  const { config, ops } = await requireSandboxChain(db, input.chain);
  return async () => {
    const txHash = await onSandboxChain(input.chain, () =>
      ops.fund(input.address, fromUsdtUnits(input.amount, config.decimals)),
    );
    return {
      object: "sandbox_faucet_transfer",
      chain: input.chain,
      address: input.address,
      amount: formatAmount(input.amount),
      tx_hash: txHash,
    };
  };
}
