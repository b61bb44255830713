import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { deliverWebhooks } from "@/lib/webhooks/deliver-webhook";
import { defineJob } from "../define-job";

// HTTP failures are handled by each delivery's own schedule; only infrastructure errors throw (and retry).
export const deliverEventJob = defineJob({
  name: "deliver_event",
  description: "First signed delivery attempts of an event to all its endpoints, in parallel.",
  payload: z.object({ eventId: z.string() }),
  handler: async ({ eventId }) => {
    await deliverWebhooks(getDb(), { eventId });
  },
});
