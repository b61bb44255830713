import { z } from "zod";
import { paginationQuery } from "@/lib/kernel/schemas/pagination";
import { EVENT_TYPES } from "@/lib/notify/events/event-types";

export const createWebhookBody = z.strictObject({
  url: z
    .string({ error: "url must be a string" })
    .min(1, { error: "url must not be empty" })
    .max(2048, { error: "url must be at most 2048 characters" }),
  events: z
    .array(z.enum(EVENT_TYPES, { error: `events must be event types: ${EVENT_TYPES.join(", ")}` }), {
      error: "events must be an array of event types",
    })
    .max(EVENT_TYPES.length, { error: `events may list at most ${EVENT_TYPES.length} types` })
    .optional(),
});
export type CreateWebhookInput = z.output<typeof createWebhookBody>;

export const updateWebhookBody = z.strictObject({
  url: createWebhookBody.shape.url.optional(),
  events: createWebhookBody.shape.events,
  active: z.boolean({ error: "active must be true or false" }).optional(),
});
export type UpdateWebhookInput = z.output<typeof updateWebhookBody>;

export const listWebhooksQuery = z.strictObject(paginationQuery);

/** How far back resend_failed looks when `since` is not given. */
export const RESEND_DEFAULT_LOOKBACK_S = 7 * 86_400;

export const resendFailedBody = z.strictObject({
  since: z
    .number({ error: "since must be a unix timestamp in seconds" })
    .int({ error: "since must be a whole number of seconds" })
    .min(0, { error: "since must be a unix timestamp in seconds" })
    // PostgreSQL's timestamps end in the year 294276; 253402300799 is the last second of 9999, far enough.
    .max(253_402_300_799, { error: "since must be a unix timestamp in seconds, at most 253402300799 (year 9999)" })
    .optional()
    .meta({ description: "Unix seconds: events created at or after it. Default: 7 days ago." }),
});
