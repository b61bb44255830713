import type { PayoutObject } from "./payout-object";
import type { PayoutFailureCode } from "./payout-lifecycle";
import { formatAmount } from "@/lib/kernel/amount";
import type { PayoutRow } from "./payout-row";

/**
 * The payout object (docs/API.md#the-payout-object): `tx_hash` once its transfer is signed, `confirmations`
 * once on chain, `confirmed_at` when confirmed, `failure_code` / `failure_message` when failed or blocked,
 * `description` when supplied.
 */
export function serializePayout(row: PayoutRow): PayoutObject {
  return {
    id: row.id,
    object: "payout" as const,
    status: row.status,
    chain: row.chain,
    to_address: row.toAddress,
    amount: formatAmount(row.amountUnits),
    currency: "USDT" as const,
    tx_hash: row.txHash,
    ...(row.confirmations !== null ? { confirmations: row.confirmations } : {}),
    ...(row.confirmedAt ? { confirmed_at: row.confirmedAt.toISOString() } : {}),
    // Why a payout failed or was blocked (docs/PAYOUTS.md, "Failure codes"): only on those; transitionPayout
    // writes no other code.
    ...(row.failureCode
      ? { failure_code: row.failureCode as PayoutFailureCode, failure_message: row.failureMessage }
      : {}),
    created_at: row.createdAt.toISOString(),
    ...(row.description !== null ? { description: row.description } : {}),
    metadata: row.metadata,
  };
}
