"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { dashboardAction } from "@/app/dashboard/dashboard-action";
import {
  createDashboardWebhook,
  deleteDashboardWebhook,
  resendDashboardFailed,
  setDashboardWebhookActive,
  updateDashboardWebhookEvents,
} from "@/lib/dashboard/actions/webhook-endpoints";
import {
  type EndpointFormErrors,
  type EndpointFormInput,
  readEndpointForm,
} from "@/lib/dashboard/actions/webhook-form";
import { describeAttempt, resendDashboardEvent, sendDashboardTestEvent } from "@/lib/dashboard/actions/webhook-sends";
import { getDb } from "@/lib/platform/db/client";

/** After an error, `values` are what was sent, so the form shows them again (React resets a submitted form). */
export type CreateWebhookState = {
  errors?: EndpointFormErrors;
  values?: EndpointFormInput;
  secret?: string;
  endpointId?: string;
};
export type ActionState = { error?: string; message?: string };
export type FilterState = { errors?: EndpointFormErrors; values?: EndpointFormInput; message?: string };

const detailPath = (id: string) => `/dashboard/webhooks/${encodeURIComponent(id)}`;

/** webhooks:write; a refusal is the form's error, with what was typed for the endpoint forms. */
const WRITE = { permission: "webhooks:write", refused: ({ error }: { error: string }) => ({ error }) } as const;
const FORM = {
  permission: "webhooks:write",
  refused: ({ error }: { error: string }, form: FormData) => ({
    errors: { form: error },
    values: readEndpointForm(form),
  }),
} as const;

/** Adds an endpoint in the selected mode (webhooks:write); its signing secret comes back once. */
export const createWebhook = dashboardAction<CreateWebhookState>(FORM, async ({ form, member }) => {
  const values = readEndpointForm(form);
  const result = await createDashboardWebhook(getDb(), member, values);
  if (!result.ok) return { errors: result.errors, values };
  revalidatePath("/dashboard/webhooks");
  return { secret: result.secret, endpointId: result.endpoint.id };
});

/** Replaces an endpoint's event filter. */
export const updateWebhookFilter = dashboardAction<FilterState>(FORM, async ({ form, text, member }) => {
  const values = readEndpointForm(form);
  const id = text("id");
  const result = await updateDashboardWebhookEvents(getDb(), member, id, values);
  if (!result.ok) return { errors: result.errors, values };
  revalidatePath(detailPath(id));
  return { message: "Event filter saved." };
});

/** Disables or enables an endpoint (`active` = "true" or "false"). */
export const setWebhookActive = dashboardAction<ActionState>(WRITE, async ({ text, member }) => {
  const id = text("id");
  const row = await setDashboardWebhookActive(getDb(), member, id, text("active") === "true");
  revalidatePath(detailPath(id));
  return { message: row.active ? "Endpoint enabled." : "Endpoint disabled." };
});

/** Deletes an endpoint (after the button's confirmation step), then back to the list. */
export const deleteWebhook = dashboardAction<ActionState>(WRITE, async ({ text, member }) => {
  await deleteDashboardWebhook(getDb(), member, text("id"));
  revalidatePath("/dashboard/webhooks");
  redirect("/dashboard/webhooks");
});

/** Sends one event again to one endpoint and says what the receiver answered. */
export const resendWebhookEvent = dashboardAction<ActionState>(WRITE, async ({ text, member }) => {
  const result = await resendDashboardEvent(getDb(), member, {
    endpointId: text("endpoint_id"),
    eventId: text("event_id"),
  });
  // Every dashboard page: the log may be an endpoint's (here) or an event's (the Events pages).
  revalidatePath("/dashboard", "layout");
  return { message: describeAttempt(result) };
});

/** Sends a webhook_endpoint.test event to the endpoint. */
export const sendWebhookTestEvent = dashboardAction<ActionState>(WRITE, async ({ text, member }) => {
  const id = text("id");
  const { eventId, result } = await sendDashboardTestEvent(getDb(), member, id);
  revalidatePath(detailPath(id));
  return { message: `Test event ${eventId}: ${describeAttempt(result)}` };
});

/** Queues the endpoint's given-up deliveries of the last 7 days for another attempt. */
export const resendFailedWebhooks = dashboardAction<ActionState>(WRITE, async ({ text, member }) => {
  const id = text("id");
  const { queued, has_more } = await resendDashboardFailed(getDb(), member, id);
  revalidatePath(detailPath(id));
  if (queued === 0) return { message: "No failed deliveries in the last 7 days." };
  const more = has_more ? " More remain: press again once these are sent." : "";
  return {
    message: `${queued} failed ${queued === 1 ? "delivery" : "deliveries"} queued for another attempt.${more}`,
  };
});
