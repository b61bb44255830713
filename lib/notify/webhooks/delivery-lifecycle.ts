import { defineLifecycle, quietStep } from "@/lib/kernel/define-lifecycle";

/** A webhook delivery (one event to one endpoint): retried while pending, then delivered or failed. */
export type DeliveryStatus = "pending" | "succeeded" | "failed";

export type DeliveryTrigger =
  /** An attempt got a 2xx (a retry, or a replay, which may revive a delivery whose retries ended). */
  | "delivered"
  /** The last scheduled attempt failed, or the endpoint was deleted or disabled before it. */
  | "gave_up"
  /** The merchant queued a failed delivery again (POST /v1/webhooks/{id}/resend_failed): one more attempt. */
  | "resent";

/**
 * Every status change a delivery can make, as data. A delivery is born `pending` when its event fans out,
 * or already settled when a replay is the first send to an endpoint added after the event. Delivered is
 * final: no later failure (a retry that was already running, say) takes it back.
 */
export const DELIVERY_LIFECYCLE = defineLifecycle<DeliveryStatus, DeliveryTrigger, null>({
  resource: "webhook delivery",
  statuses: ["pending", "succeeded", "failed"],
  terminal: ["succeeded"],
  transitions: [
    quietStep("pending", "delivered", "succeeded"),
    quietStep("failed", "delivered", "succeeded"),
    quietStep("pending", "gave_up", "failed"),
    quietStep("failed", "resent", "pending"),
  ],
});
