import { causeExecutor } from "@/lib/money-out/transfers/execute-causes";
import { payoutBatchHooks } from "@/lib/money-out/transfers/payout-batch-hooks";
import type { CauseExecution } from "@/lib/money-out/transfers/take-cause-step";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { PAYOUT_KIND, transitionPayout } from "./payout-kind";
import { reviewReason } from "./payout-policy";
import type { PayoutRow } from "./payout-row";
import { payoutStrategy } from "./payout-strategy";

/**
 * Payouts are executed by the transfer engine (lib/money-out/transfers/execute-causes.ts, job
 * `execute_payout`, enqueued with the payout and on approval). What a payout adds: the merchant's review policy
 * holds it (`review_required`), and with the `batch` strategy (EVM) it joins the chain's open payout batch
 * (lib/money-out/transfers/payout-batch.ts), unless its last batch reverted: then it goes alone.
 */
const PAYOUT_EXECUTION: CauseExecution<PayoutRow> = {
  kind: PAYOUT_KIND,
  enqueue: (db, id, runAt) =>
    enqueueJob(db, "execute_payout", { payout_id: id }, { jobKey: `execute_payout:${id}`, runAt }),
  async hold(tx, payout) {
    if (!(await reviewReason(tx, payout))) return false;
    await transitionPayout(tx, payout, "held_for_review");
    return true;
  },
  batched: (config) => payoutStrategy(config) === "batch",
};

const payoutExecutor = causeExecutor(PAYOUT_EXECUTION);

export const executePayout = payoutExecutor.execute;
export const executePayoutRound = payoutExecutor.round;

/** A payout batch's part in its transfer: its members move with it as a payout with its own (payout-kind.ts). */
export const payoutBatchOutboundHooks = payoutBatchHooks(PAYOUT_EXECUTION);
