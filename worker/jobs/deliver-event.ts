import { getDb } from "@/lib/db/client";
import { deliverWebhooks } from "@/lib/webhooks/deliver-webhook";
import * as contracts from "@/lib/jobs/contracts";
import { defineJob } from "@/lib/jobs/define-job";

// HTTP failures are handled by each delivery's own schedule; only infrastructure errors throw (and retry).
export const deliverEventJob = defineJob(contracts.deliverEvent, async ({ eventId }) => {
  await deliverWebhooks(getDb(), { eventId });
});
