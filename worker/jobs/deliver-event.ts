import { getDb } from "@/lib/platform/db/client";
import { deliverWebhooks } from "@/lib/notify/webhooks/deliver-webhook";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

// HTTP failures are handled by each delivery's own schedule; only infrastructure errors throw (and retry).
export const deliverEventJob = defineJob(contracts.deliverEvent, async ({ eventId }) => {
  await deliverWebhooks(getDb(), { eventId });
});
