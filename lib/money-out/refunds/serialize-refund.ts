import { formatAmount } from "@/lib/kernel/amount";
import { claimUrl, unsealClaimToken } from "./claim-token";
import type { RefundFailureCode } from "./refund-lifecycle";
import type { RefundObject } from "./refund-object";
import type { RefundRow } from "./refund-row";

/**
 * The refund object (docs/API.md#the-refund-object) without its claim secrets: what events, webhooks, the
 * stream, lists, read-only keys and the dashboard's pages carry. `claim_pending` says a link is open.
 */
export function serializeRefund(row: RefundRow): RefundObject {
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
    claim_url: null,
    claim_pending: row.status === "requires_action",
    claim_code_required: row.claimCodeRequired,
    claim_code: null,
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

/**
 * The refund object for a principal that may create refunds (`refunds:write`): with `claim_url` while the link
 * is open, and the claim code when it was just made (it is stored hashed, so it is never read back).
 */
export function serializeRefundForRefunder(row: RefundRow, baseUrl: string, claimCode: string | null = null) {
  return { ...serializeRefund(row), claim_url: claimUrlOf(row, baseUrl), claim_code: claimCode };
}

/** The open claim's link, unsealed (null once the refund no longer waits for the payer): for refunders only. */
export const claimUrlOf = (row: RefundRow, baseUrl: string): string | null =>
  row.claimTokenSealed ? claimUrl(baseUrl, unsealClaimToken(row.id, row.claimTokenSealed)) : null;
