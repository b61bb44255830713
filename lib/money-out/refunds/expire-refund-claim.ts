import { inTransaction, type Db } from "@/lib/platform/db/client";
import { lockRefund, transitionRefund } from "./transition-refund";

/**
 * Job `expire_refund_claim`, enqueued for the end of the claim window: a refund still waiting for the payer's
 * address is canceled and its amount goes back to `available` (`refund.canceled`, failure_code
 * `claim_expired`). A refund claimed or canceled meanwhile is left alone.
 */
export async function expireRefundClaim(db: Db, refundId: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const refund = await lockRefund(tx, refundId);
    if (refund?.status !== "requires_action" || !refund.expiresAt || refund.expiresAt.getTime() > Date.now())
      return false;
    await transitionRefund(tx, refund, "claim_expired", { failureCode: "claim_expired" });
    return true;
  });
}
