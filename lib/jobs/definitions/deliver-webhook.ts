import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { deliverWebhooks } from "@/lib/webhooks/deliver-webhook";
import { defineJob } from "../define-job";

// HTTP failures are handled by the delivery's own schedule; only infrastructure errors throw (and retry).
export const deliverWebhookJob = defineJob({
  name: "deliver_webhook",
  description: "One signed retry of a delivery; schedules the next on failure.",
  payload: z.object({ deliveryId: z.string() }),
  handler: async ({ deliveryId }) => {
    await deliverWebhooks(getDb(), { deliveryId });
  },
});
