import { getDb } from "@/lib/db/client";
import { sweepStalledDeliveries } from "@/lib/webhooks/redeliver-stalled";
import * as contracts from "@/lib/jobs/contracts";
import { defineJob } from "@/lib/jobs/define-job";

// A delivery more than a minute past its lease or schedule has lost its worker.
export const redeliverStalledWebhooksJob = defineJob(contracts.redeliverStalledWebhooks, async (_payload, helpers) => {
  const count = await sweepStalledDeliveries(getDb(), new Date(Date.now() - 60_000));
  if (count > 0) helpers.logger.info(`re-enqueued ${count} stalled webhook deliveries`);
});
