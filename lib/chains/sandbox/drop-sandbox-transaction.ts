import type { Db } from "@/lib/platform/db/client";
import { onSandboxChain, requireSandboxChain } from "./require-sandbox-chain";

/**
 * POST /v1/sandbox/chains/:chain/drop (EVM chains): removes a transaction that is not yet mined from the
 * node's pool, as a congested network forgets one; `dropped` is false when it was not pending there.
 */
export async function prepareDrop(db: Db, chain: string, txHash: string) {
  const { ops } = await requireSandboxChain(db, chain);
  return async () => {
    const dropped = await onSandboxChain(chain, () => ops.dropTransaction(txHash));
    return { object: "sandbox_drop" as const, chain, tx_hash: txHash, dropped };
  };
}
