import { type Db, inTransaction } from "@/lib/platform/db/client";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import type { PayoutRow } from "./payout-row";
import { lockPayout, transitionPayout } from "./payout-kind";

export class PayoutReviewError extends Error {}

async function reviewable(tx: Db, id: string): Promise<PayoutRow> {
  const payout = await lockPayout(tx, id);
  if (!payout) throw new PayoutReviewError(`no payout ${id}`);
  if (payout.status !== "review_required")
    throw new PayoutReviewError(`payout ${id} is ${payout.status}, not review_required`);
  return payout;
}

/**
 * An operator (CLI, or the dashboard's button) approves a payout held for review: back to `pending`, marked
 * approved so the policy does not hold it again, and executed as usual (the deny-list still applies).
 */
export async function approvePayout(db: Db, id: string): Promise<PayoutRow> {
  return inTransaction(db, async (tx) => {
    const payout = await transitionPayout(tx, await reviewable(tx, id), "approved", {
      columns: { approved_at: new Date() },
    });
    await enqueueJob(tx, "execute_payout", { payout_id: id }, { jobKey: `execute_payout:${id}` });
    return payout;
  });
}

/** Rejected: `failed` with `failure_code` `rejected`, the amount back in `available`, `payout.failed`. */
export async function rejectPayout(db: Db, id: string): Promise<PayoutRow> {
  return inTransaction(db, async (tx) =>
    transitionPayout(tx, await reviewable(tx, id), "rejected", { failureCode: "rejected" }),
  );
}
