"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { actionErrorMessage, requireActionActor } from "@/lib/identity/auth/action-actor";
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

const field = (form: FormData, name: string) => String(form.get(name) ?? "");
const detailPath = (id: string) => `/dashboard/webhooks/${encodeURIComponent(id)}`;

/** Adds an endpoint in the selected mode (webhooks:write); its signing secret comes back once. */
export async function createWebhook(_prev: CreateWebhookState, form: FormData): Promise<CreateWebhookState> {
  const values = readEndpointForm(form);
  try {
    const actor = await requireActionActor("webhooks:write");
    const result = await createDashboardWebhook(getDb(), actor, values);
    if (!result.ok) return { errors: result.errors, values };
    revalidatePath("/dashboard/webhooks");
    return { secret: result.secret, endpointId: result.endpoint.id };
  } catch (err) {
    return { errors: { form: actionErrorMessage(err) }, values };
  }
}

/** Replaces an endpoint's event filter. */
export async function updateWebhookFilter(_prev: FilterState, form: FormData): Promise<FilterState> {
  const values = readEndpointForm(form);
  try {
    const actor = await requireActionActor("webhooks:write");
    const id = field(form, "id");
    const result = await updateDashboardWebhookEvents(getDb(), actor, id, values);
    if (!result.ok) return { errors: result.errors, values };
    revalidatePath(detailPath(id));
    return { message: "Event filter saved." };
  } catch (err) {
    return { errors: { form: actionErrorMessage(err) }, values };
  }
}

/** Disables or enables an endpoint (`active` = "true" or "false"). */
export async function setWebhookActive(_prev: ActionState, form: FormData): Promise<ActionState> {
  try {
    const actor = await requireActionActor("webhooks:write");
    const id = field(form, "id");
    const row = await setDashboardWebhookActive(getDb(), actor, id, field(form, "active") === "true");
    revalidatePath(detailPath(id));
    return { message: row.active ? "Endpoint enabled." : "Endpoint disabled." };
  } catch (err) {
    return { error: actionErrorMessage(err) };
  }
}

/** Deletes an endpoint (after the button's confirmation step), then back to the list. */
export async function deleteWebhook(_prev: ActionState, form: FormData): Promise<ActionState> {
  try {
    const actor = await requireActionActor("webhooks:write");
    await deleteDashboardWebhook(getDb(), actor, field(form, "id"));
  } catch (err) {
    return { error: actionErrorMessage(err) };
  }
  revalidatePath("/dashboard/webhooks");
  redirect("/dashboard/webhooks");
}

/** Sends one event again to one endpoint and says what the receiver answered. */
export async function resendWebhookEvent(_prev: ActionState, form: FormData): Promise<ActionState> {
  try {
    const actor = await requireActionActor("webhooks:write");
    const endpointId = field(form, "endpoint_id");
    const result = await resendDashboardEvent(getDb(), actor, { endpointId, eventId: field(form, "event_id") });
    // Every dashboard page: the log may be an endpoint's (here) or an event's (the Events pages).
    revalidatePath("/dashboard", "layout");
    return { message: describeAttempt(result) };
  } catch (err) {
    return { error: actionErrorMessage(err) };
  }
}

/** Sends a webhook_endpoint.test event to the endpoint. */
export async function sendWebhookTestEvent(_prev: ActionState, form: FormData): Promise<ActionState> {
  try {
    const actor = await requireActionActor("webhooks:write");
    const id = field(form, "id");
    const { eventId, result } = await sendDashboardTestEvent(getDb(), actor, id);
    revalidatePath(detailPath(id));
    return { message: `Test event ${eventId}: ${describeAttempt(result)}` };
  } catch (err) {
    return { error: actionErrorMessage(err) };
  }
}

/** Queues the endpoint's given-up deliveries of the last 7 days for another attempt. */
export async function resendFailedWebhooks(_prev: ActionState, form: FormData): Promise<ActionState> {
  try {
    const actor = await requireActionActor("webhooks:write");
    const id = field(form, "id");
    const { queued, has_more } = await resendDashboardFailed(getDb(), actor, id);
    revalidatePath(detailPath(id));
    if (queued === 0) return { message: "No failed deliveries in the last 7 days." };
    const more = has_more ? " More remain: press again once these are sent." : "";
    return {
      message: `${queued} failed ${queued === 1 ? "delivery" : "deliveries"} queued for another attempt.${more}`,
    };
  } catch (err) {
    return { error: actionErrorMessage(err) };
  }
}
