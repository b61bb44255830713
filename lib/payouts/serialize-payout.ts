import { formatAmount } from "@/lib/money/amount";
import type { PayoutRow } from "./payout-row";

/** The payout object (docs/API.md#the-payout-object): `confirmations` once on-chain, `confirmed_at` when confirmed, `description` when supplied. */
export function serializePayout(row: PayoutRow) {
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
    created_at: row.createdAt.toISOString(),
    ...(row.description !== null ? { description: row.description } : {}),
    metadata: row.metadata,
  };
}
