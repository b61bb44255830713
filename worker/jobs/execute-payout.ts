import { getDb } from "@/lib/platform/db/client";
import { executePayout } from "@/lib/money-out/payouts/execute-payout";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

export const executePayoutJob = defineJob(contracts.executePayout, async (payload) => {
  await executePayout(getDb(), payload.payout_id);
});
