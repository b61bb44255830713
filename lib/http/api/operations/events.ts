import { depositObject } from "@/lib/money-in/deposit-addresses/deposit-address-object";
import { z } from "zod";
import { attemptPaginationQuery, paginationQuery } from "@/lib/kernel/schemas/pagination";
import { listOf } from "@/lib/kernel/schemas/response-fields";
import { listFilterQuery } from "@/lib/kernel/schemas/list-filters";
import { paymentObject } from "@/lib/money-in/payments/payment-object";
import { payoutObject } from "@/lib/money-out/payouts/payout-object";
import { refundObject } from "@/lib/money-out/refunds/refund-object";
import { eventObjectOf } from "@/lib/notify/events/event-object";
import { EVENT_TYPES, type EventType } from "@/lib/notify/events/event-types";
import { webhookAttemptList } from "@/lib/notify/webhooks/webhook-objects";
import { defineOperation } from "../operation";

/** An event as listed and as delivered: the payment, payout or refund as it was when the event happened. */
export const eventObject = eventObjectOf(
  z.discriminatedUnion("object", [paymentObject, depositObject, payoutObject, refundObject]),
);

const tag = "Events";

export const EVENTS = {
  list: defineOperation({
    operationId: "listEvents",
    method: "get",
    path: "/v1/events",
    tag,
    summary: "List events",
    description: "Newest first: what was (or would have been) delivered to your endpoints.",
    scope: "events:read",
    query: z.strictObject({
      ...paginationQuery,
      type: z.enum(EVENT_TYPES, { error: `type must be one of ${EVENT_TYPES.join(", ")}` }).optional(),
      delivery_success: z
        .enum(["true", "false"], { error: "delivery_success must be true or false" })
        .transform((v) => v === "true")
        .optional()
        .meta({
          description:
            "false: events with a delivery not delivered (pending or given up); " +
            "true: events every delivery of which succeeded.",
        }),
      created: listFilterQuery.created,
    }),
    response: listOf(eventObject).meta({ id: "EventList" }),
  }),
  stream: defineOperation({
    operationId: "streamEvents",
    method: "get",
    path: "/v1/events/stream",
    tag,
    summary: "Stream events",
    description: [
      "Server-sent events: each of your events as it happens, `id:` the event's id, `event:` its type, `data:` the",
      "event object exactly as a webhook delivery carries it. Without `Last-Event-ID` the stream starts now;",
      "with it, just after that event, so a client that reconnects (or restarts) with the last id it handled",
      "misses nothing. Events come at least once, in the order their transactions committed (not always the",
      "order of `created`). A comment every 15 s keeps the connection alive; the server closes it after 15",
      "minutes, and the client reconnects with Last-Event-ID. At most 10 open streams per key. `npm run cli --",
      "listen` reads this stream and forwards each event to a local URL.",
    ].join(" "),
    scope: "events:read",
    query: z.strictObject({
      types: z
        .string()
        .transform((v, ctx) => {
          const types = v.split(",").map((t) => t.trim());
          const unknown = types.find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
          if (unknown !== undefined)
            ctx.addIssue({
              code: "custom",
              message: `unknown event type '${unknown}': one of ${EVENT_TYPES.join(", ")}`,
            });
          return types as EventType[];
        })
        .optional()
        .meta({ description: "Only these types, comma-separated (default: every type)." }),
    }),
    headers: z.object({
      "Last-Event-ID": z
        .string()
        .max(64)
        .optional()
        .meta({ description: "Resume just after this event (one of yours; another id is a 400)." }),
    }),
    response: z.string().meta({
      description: "`text/event-stream`: `retry:`, then one `id:`/`event:`/`data:` frame per event (data: the Event).",
    }),
    produces: "text/event-stream",
    errors: ["rate_limit_exceeded"],
  }),
  retrieve: defineOperation({
    operationId: "retrieveEvent",
    method: "get",
    path: "/v1/events/{id}",
    tag,
    summary: "Retrieve an event",
    scope: "events:read",
    query: z.strictObject({}),
    response: eventObject,
    errors: ["not_found"],
  }),
  attempts: defineOperation({
    operationId: "listEventAttempts",
    method: "get",
    path: "/v1/events/{id}/attempts",
    tag,
    summary: "List an event's delivery attempts",
    // Attempts show endpoint URLs and receivers' responses: webhook configuration, not just events.
    scope: ["events:read", "webhooks:read"],
    query: z.strictObject(attemptPaginationQuery),
    response: webhookAttemptList,
    errors: ["not_found"],
  }),
};
