import { expireRefundClaim } from "@/lib/money-out/refunds/expire-refund-claim";
import { getDb } from "@/lib/platform/db/client";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

export const expireRefundClaimJob = defineJob(contracts.expireRefundClaim, async (payload) => {
  await expireRefundClaim(getDb(), payload.refund_id);
});
