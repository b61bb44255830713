import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { lockRefund, transitionRefund } from "./refund-kind";

/**
 * Job `expire_refund_claim`, enqueued for the end of the claim window: a refund still waiting for the payer's
 * address is canceled and its amount goes back to `available` (`refund.canceled`, failure_code
 * `claim_expired`). A refund claimed or canceled meanwhile is left alone. The window is judged by the
 * database's clock; a job that runs early (a worker whose clock is ahead) is enqueued again for the end.
 */
export async function expireRefundClaim(db: Db, refundId: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const refund = await lockRefund(tx, refundId);
    if (refund?.status !== "requires_action" || !refund.expiresAt) return false;
    const [due] = await query<{ due: boolean }>(tx, "select expires_at <= now() as due from refunds where id = $1", [
      refundId,
    ]);
    if (!due!.due) {
      await enqueueJob(
        tx,
        "expire_refund_claim",
        { refund_id: refundId },
        { jobKey: `expire_refund_claim:${refundId}`, runAt: refund.expiresAt },
      );
      return false;
    }
    await transitionRefund(tx, refund, "claim_expired", { failureCode: "claim_expired" });
    return true;
  });
}
