import { getDb } from "@/lib/db/client";
import { executePayout } from "@/lib/payouts/execute-payout";
import * as contracts from "@/lib/jobs/contracts";
import { defineJob } from "@/lib/jobs/define-job";

export const executePayoutJob = defineJob(contracts.executePayout, async (payload) => {
  await executePayout(getDb(), payload.payout_id);
});
