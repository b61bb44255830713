import { DomainError } from "@/lib/kernel/domain-error";
import { addressProblem } from "@/lib/chains/validate-address";
import type { Db } from "@/lib/platform/db/client";
import { onSandboxChain, requireSandboxChain } from "./require-sandbox-chain";

/**
 * POST /v1/sandbox/chains/:chain/freeze and /unfreeze: the sandbox token refuses (or again accepts) transfers
 * to `address`, like USDT's blacklist (on solana: the owner's token account frozen by the mint's freeze
 * authority). The returned call resolves once that is final on chain; `tx_hash` is null when the address
 * already was in that state.
 */
export async function prepareFreeze(db: Db, chain: string, address: string, frozen: boolean) {
  const { config, ops } = await requireSandboxChain(db, chain);
  const problem = addressProblem(config.chain, address);
  if (problem)
    throw new DomainError("invalid_request_error", problem.replace(/^to_address/, "address"), { param: "address" });
  return async () => {
    const txHash = await onSandboxChain(chain, () => ops.setFrozen(address, frozen));
    return { object: "sandbox_freeze" as const, chain, address, frozen, tx_hash: txHash };
  };
}
