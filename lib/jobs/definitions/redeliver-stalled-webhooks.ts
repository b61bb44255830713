import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { sweepStalledDeliveries } from "@/lib/webhooks/redeliver-stalled";
import { defineJob } from "../define-job";

export const redeliverStalledWebhooksJob = defineJob({
  name: "redeliver_stalled_webhooks",
  description: "Re-enqueues webhook deliveries whose worker died mid-attempt.",
  payload: z.object({}),
  cron: "* * * * *",
  // A delivery more than a minute past its lease or schedule has lost its worker.
  handler: async (_payload, helpers) => {
    const count = await sweepStalledDeliveries(getDb(), new Date(Date.now() - 60_000));
    if (count > 0) helpers.logger.info(`re-enqueued ${count} stalled webhook deliveries`);
  },
});
