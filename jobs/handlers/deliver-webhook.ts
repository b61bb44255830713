import type { Task } from "graphile-worker";
import { getDb } from "@/lib/db/client";
import { deliverWebhooks } from "@/lib/webhooks/deliver-webhook";

// HTTP failures are handled by each delivery's own schedule; only infrastructure errors throw (and retry).

export const deliverEventTask: Task = async (payload) => {
  await deliverWebhooks(getDb(), { eventId: (payload as { eventId: string }).eventId });
};

export const deliverWebhookTask: Task = async (payload) => {
  await deliverWebhooks(getDb(), { deliveryId: (payload as { deliveryId: string }).deliveryId });
};
