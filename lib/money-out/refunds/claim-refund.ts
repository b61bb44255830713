import { DomainError } from "@/lib/kernel/domain-error";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { hashClaimToken, isClaimTokenShape } from "./claim-token";
import { checkRefundDestination } from "./refund-destination";
import { REFUND_COLUMNS, type RefundRow, toRefundRow } from "./refund-row";
import { lockRefund, transitionRefund } from "./transition-refund";

export interface RefundClaim {
  refund: RefundRow;
  merchantName: string;
}

/**
 * The refund a claim link points at, while it waits for the payer's address and its window is open; null
 * otherwise (unknown, malformed, used, canceled or expired: the page answers 404 for each alike).
 */
export async function loadRefundClaim(db: Db, token: string): Promise<RefundClaim | null> {
  if (!isClaimTokenShape(token)) return null;
  const [row] = await query(
    db,
    `select ${REFUND_COLUMNS}, (select name from merchants m where m.id = r.merchant_id) as merchant_name
       from refunds r where claim_token_hash = $1 and status = 'requires_action' and expires_at > now()`,
    [hashClaimToken(token)],
  );
  return row ? { refund: toRefundRow(row), merchantName: row.merchant_name as string } : null;
}

/**
 * The payer's address, checked as a payout's destination is (format, the service's own addresses, then the
 * network's answer for Solana, outside any transaction). Throws a DomainError with param `address`.
 */
export async function checkClaimAddress(db: Db, claim: RefundClaim, address: string): Promise<void> {
  const check = await checkRefundDestination(db, claim.refund, claim.refund.chain, address, "address");
  await check();
}

/**
 * The payer confirmed the address: once (the token dies in this transaction), the refund is `pending` with
 * its `to_address` and its execution is enqueued with it. A second submit, or one after the window, finds
 * nothing to claim.
 */
export async function claimRefund(db: Db, token: string, address: string): Promise<RefundRow> {
  const claim = await loadRefundClaim(db, token);
  if (!claim) throw new DomainError("not_found", "This refund link is no longer valid.", { param: "token" });
  await checkClaimAddress(db, claim, address);
  return inTransaction(db, async (tx) => {
    const refund = await lockRefund(tx, claim.refund.id);
    const open =
      refund?.status === "requires_action" &&
      refund.claimTokenHash === hashClaimToken(token) &&
      refund.expiresAt !== null &&
      refund.expiresAt.getTime() > Date.now();
    if (!open) throw new DomainError("not_found", "This refund link is no longer valid.", { param: "token" });
    const claimed = await transitionRefund(tx, refund, "claimed", { toAddress: address });
    await enqueueJob(tx, "execute_refund", { refund_id: refund.id }, { jobKey: `execute_refund:${refund.id}` });
    return claimed;
  });
}
