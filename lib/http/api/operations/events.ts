import { z } from "zod";
import { attemptPaginationQuery, paginationQuery } from "@/lib/kernel/schemas/pagination";
import { listOf } from "@/lib/kernel/schemas/response-fields";
import { paymentObject } from "@/lib/money-in/payments/payment-object";
import { payoutObject } from "@/lib/money-out/payouts/payout-object";
import { eventObjectOf } from "@/lib/notify/events/event-object";
import { EVENT_TYPES } from "@/lib/notify/events/event-types";
import { webhookAttemptList } from "@/lib/notify/webhooks/webhook-objects";
import { defineOperation } from "../operation";

/** An event as listed and as delivered: the payment or payout as it was when the event happened. */
export const eventObject = eventObjectOf(z.discriminatedUnion("object", [paymentObject, payoutObject]));

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
            "false: events with a delivery not delivered (pending or given up); true: events every delivery of which succeeded.",
        }),
    }),
    response: listOf(eventObject).meta({ id: "EventList" }),
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
