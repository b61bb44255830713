import { getDb } from "@/lib/platform/db/client";
import { sweepStalledDeliveries } from "@/lib/notify/webhooks/redeliver-stalled";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

// A delivery more than a minute past its lease or schedule has lost its worker.
export const redeliverStalledWebhooksJob = defineJob(contracts.redeliverStalledWebhooks, async (_payload, helpers) => {
  const count = await sweepStalledDeliveries(getDb(), new Date(Date.now() - 60_000));
  if (count > 0) helpers.logger.info(`re-enqueued ${count} stalled webhook deliveries`);
});
