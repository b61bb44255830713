import { z } from "zod";
import { listOf, timestamp } from "@/lib/kernel/schemas/response-fields";
import { EVENT_TYPES } from "@/lib/notify/events/event-types";

/** The webhook endpoint object as serializeWebhookEndpoint renders it (docs/API.md#webhook-endpoints). */
export const webhookEndpointObject = z
  .object({
    id: z.string().meta({ examples: ["we_4Tn8Kp2Z"] }),
    object: z.literal("webhook_endpoint"),
    url: z.string(),
    events: z.array(z.enum(EVENT_TYPES)).meta({ description: "Empty: every event type." }),
    active: z.boolean(),
    created_at: timestamp,
  })
  .meta({ id: "WebhookEndpoint" });
export type WebhookEndpointObject = z.input<typeof webhookEndpointObject>;

/** The endpoint as its creation answers it: with its signing secret, shown this once. */
export const createdWebhookEndpointObject = webhookEndpointObject
  .extend({ secret: z.string().meta({ description: "whsec_…: verifies the Webhook-Signature header." }) })
  .meta({ id: "WebhookEndpointWithSecret" });

export const deletedWebhookEndpointObject = z
  .object({ id: z.string(), object: z.literal("webhook_endpoint"), deleted: z.literal(true) })
  .meta({ id: "DeletedWebhookEndpoint" });

/** One delivery attempt (GET /v1/events/{id}/attempts, GET /v1/webhooks/{id}/attempts). */
export const webhookAttemptObject = z
  .object({
    id: z.string().meta({ examples: ["wha_1024"] }),
    object: z.literal("webhook_attempt"),
    event_id: z.string(),
    endpoint_id: z.string(),
    url: z.string(),
    attempt: z.int().min(1),
    created_at: timestamp,
    success: z.boolean(),
    status_code: z.int().nullable().meta({ description: "Null when no HTTP answer came." }),
    error: z.string().nullable(),
    latency_ms: z.int().min(0),
    response_body: z.string().nullable().meta({ description: "The start of the receiver's answer, storable text." }),
  })
  .meta({ id: "WebhookAttempt" });
export type WebhookAttemptObject = z.input<typeof webhookAttemptObject>;

export const webhookAttemptList = listOf(webhookAttemptObject).meta({ id: "WebhookAttemptList" });

/** What POST /v1/webhooks/{id}/resend_failed answers. */
export const webhookResendObject = z
  .strictObject({
    object: z.literal("webhook_resend"),
    endpoint: z.string(),
    queued: z.int().min(0).meta({ description: "Deliveries queued for one more attempt now." }),
    has_more: z.boolean().meta({ description: "More failed deliveries are left: call again." }),
  })
  .meta({ id: "WebhookResend" });
