import { getDb } from "@/lib/platform/db/client";
import { sweepStalledDeliveries } from "@/lib/notify/webhooks/redeliver-stalled";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

// A delivery 15 s past its lease or schedule has lost its worker (a retry's own job runs on time: 15 s is its
// slack for a busy queue).
const STALLED_AFTER_MS = 15_000;

export const redeliverStalledWebhooksJob = defineJob(contracts.redeliverStalledWebhooks, async (_payload, helpers) => {
  const count = await sweepStalledDeliveries(getDb(), new Date(Date.now() - STALLED_AFTER_MS));
  if (count > 0) helpers.logger.info(`re-enqueued ${count} stalled webhook deliveries`);
});
