import type { z } from "zod";
import type { EventType } from "@/lib/notify/events/event-types";
import { createWebhookBody } from "@/lib/notify/webhooks/schemas";
import type { FieldErrors } from "@/lib/identity/auth/dashboard-actor";

/** What the endpoint form sends: the URL, "all" or "chosen", and the chosen event types. */
export interface EndpointFormInput {
  url?: string;
  filter: "all" | "chosen";
  events: string[];
}

export type EndpointFormErrors = FieldErrors<"url" | "events">;

/** Reads the endpoint form's fields (absent ones are empty). */
export function readEndpointForm(form: FormData): EndpointFormInput {
  const url = form.get("url");
  return {
    url: typeof url === "string" ? url.trim() : undefined,
    filter: form.get("filter") === "chosen" ? "chosen" : "all",
    events: form.getAll("events").filter((e): e is string => typeof e === "string"),
  };
}

/**
 * The event filter, validated by the API's own schema: [] for all events; "chosen" with none ticked is an
 * error (an empty filter would mean all events, the opposite of what was meant).
 */
export function parseEventFilter(input: EndpointFormInput): { events: string[] } | { errors: EndpointFormErrors } {
  if (input.filter === "all") return { events: [] };
  if (input.events.length === 0) return { errors: { events: "Choose at least one event type, or All events." } };
  const parsed = createWebhookBody.shape.events.safeParse(input.events);
  if (!parsed.success) return { errors: { events: parsed.error.issues[0]!.message } };
  return { events: parsed.data ?? [] };
}

/** The URL and filter as POST /v1/webhooks validates them, or the errors next to their fields. */
export function parseEndpointForm(
  input: EndpointFormInput,
): { value: z.output<typeof createWebhookBody> } | { errors: EndpointFormErrors } {
  const filter = parseEventFilter(input);
  const url = createWebhookBody.shape.url.safeParse(input.url ?? "");
  const errors: EndpointFormErrors = {
    ...("errors" in filter ? filter.errors : {}),
    ...(url.success ? {} : { url: url.error.issues[0]!.message }),
  };
  if (Object.keys(errors).length > 0 || "errors" in filter || !url.success) return { errors };
  return { value: { url: url.data, events: filter.events as EventType[] } };
}
