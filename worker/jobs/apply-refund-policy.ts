import { applyRefundPolicy } from "@/lib/money-out/refunds/apply-refund-policy";
import { getDb } from "@/lib/platform/db/client";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

export const applyRefundPolicyJob = defineJob(contracts.applyRefundPolicy, async (payload) => {
  await applyRefundPolicy(getDb(), payload.payment_id);
});
