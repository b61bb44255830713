import { causeExecutor } from "@/lib/money-out/transfers/execute-causes";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { REFUND_KIND } from "./refund-kind";
import type { RefundRow } from "./refund-row";

/**
 * Refunds are executed by the transfer engine (lib/money-out/transfers/execute-causes.ts, job `execute_refund`,
 * enqueued when the refund gets its address), in the treasury's queue with the payouts: failed when the
 * destination is denied or sanctioned, else its transfer from the treasury queued; short of liquidity it waits.
 */
const refundExecutor = causeExecutor<RefundRow>({
  kind: REFUND_KIND,
  enqueue: (db, id, runAt) =>
    enqueueJob(db, "execute_refund", { refund_id: id }, { jobKey: `execute_refund:${id}`, runAt }),
});

export const executeRefund = refundExecutor.execute;
