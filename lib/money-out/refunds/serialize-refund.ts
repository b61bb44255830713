import { formatAmount } from "@/lib/kernel/amount";
import { claimUrl, unsealClaimToken } from "./claim-token";
import type { RefundFailureCode } from "./refund-lifecycle";
import type { RefundObject } from "./refund-object";
import type { RefundRow } from "./refund-row";

/** The refund object (docs/API.md#the-refund-object), for the API, events and the dashboard alike. */
export function serializeRefund(row: RefundRow, baseUrl: string): RefundObject {
  return {
    id: row.id,
    object: "refund" as const,
    payment: row.paymentId,
    amount: formatAmount(row.amountUnits),
    currency: "USDT" as const,
    chain: row.chain,
    status: row.status,
    destination: row.destination,
    to_address: row.toAddress,
    claim_url: row.claimTokenSealed ? claimUrl(baseUrl, unsealClaimToken(row.id, row.claimTokenSealed)) : null,
    tx_hash: row.txHash,
    confirmations: row.confirmations,
    reason: row.reason,
    metadata: row.metadata,
    failure_code: row.failureCode as RefundFailureCode | null,
    failure_message: row.failureMessage,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    succeeded_at: row.succeededAt?.toISOString() ?? null,
  };
}
