import type { Task } from "graphile-worker";
import { getDb } from "@/lib/db/client";
import { deliverWebhook } from "@/lib/webhooks/deliver-webhook";

/** HTTP failures are handled by the delivery's own schedule; only infrastructure errors throw (and retry). */
export const deliverWebhookTask: Task = async (payload) => {
  const { deliveryId } = payload as { deliveryId: string };
  await deliverWebhook(getDb(), deliveryId);
};
