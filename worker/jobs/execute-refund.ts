import { executeRefund } from "@/lib/money-out/refunds/execute-refund";
import { getDb } from "@/lib/platform/db/client";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

export const executeRefundJob = defineJob(contracts.executeRefund, async (payload) => {
  await executeRefund(getDb(), payload.refund_id);
});
