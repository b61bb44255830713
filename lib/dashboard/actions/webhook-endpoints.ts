import { DomainError } from "@/lib/kernel/domain-error";
import type { AppConfig } from "@/lib/platform/config/env";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import type { EventType } from "@/lib/notify/events/event-types";
import { recordAudit } from "@/lib/identity/users/audit";
import type { Resolver } from "@/lib/notify/webhooks/check-webhook-url";
import { checkEndpointUrl, insertWebhookEndpoint } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { deleteWebhookEndpoint, updateWebhookEndpoint } from "@/lib/notify/webhooks/manage-webhook-endpoint";
import type { WebhookEndpointRow } from "@/lib/notify/webhooks/webhook-endpoint-row";
import { assertCan, type DashboardActor, ownerOf } from "@/lib/identity/auth/dashboard-actor";
import { type EndpointFormErrors, type EndpointFormInput, parseEndpointForm, parseEventFilter } from "./webhook-form";
import { webhookStepUpRefusal } from "./webhook-step-up";
import { resendFailedWithAudit } from "./resend-failed-webhooks";
import type { ResendFailedResult } from "@/lib/notify/webhooks/resend-failed-deliveries";

export type CreateEndpointResult =
  | { ok: true; endpoint: WebhookEndpointRow; secret: string }
  | { ok: false; errors: EndpointFormErrors };

/** A domain error with a param → that field's error; without → the form's. Anything else is rethrown. */
function fieldErrorOf(err: unknown): EndpointFormErrors {
  if (err instanceof DomainError && err.type === "invalid_request_error")
    return { [err.param === "url" || err.param === "events" ? err.param : "form"]: err.message };
  throw err;
}

/**
 * Adds an endpoint as POST /v1/webhooks does (same schema, URL and SSRF rules, limit of 16), audited in the
 * insert's transaction; the `whsec_…` secret is returned this once. Live needs step-up first.
 */
export async function createDashboardWebhook(
  db: Db,
  actor: DashboardActor,
  input: EndpointFormInput,
  opts: { resolve?: Resolver; config?: AppConfig } = {},
): Promise<CreateEndpointResult> {
  assertCan(actor, "webhooks:write");
  const refusal = webhookStepUpRefusal(actor);
  if (refusal) return { ok: false, errors: { form: refusal } };
  const parsed = parseEndpointForm(input);
  if ("errors" in parsed) return { ok: false, errors: parsed.errors };
  try {
    // DNS is resolved before the transaction (docs/API-DECISIONS.md#idempotency).
    const url = await checkEndpointUrl(actor.mode, parsed.value.url, opts);
    return await inTransaction(db, async (tx) => {
      const { row, secret } = await insertWebhookEndpoint(tx, ownerOf(actor), parsed.value, url);
      await recordAudit(tx, actor, {
        action: "webhook_endpoint.created",
        target: row.id,
        details: { mode: actor.mode, url: row.url, events: row.events },
      });
      return { ok: true as const, endpoint: row, secret };
    });
  } catch (err) {
    return { ok: false, errors: fieldErrorOf(err) };
  }
}

/** Changes an endpoint's event filter ([] = all events); audited. Another merchant's or mode's: 404. */
export async function updateDashboardWebhookEvents(
  db: Db,
  actor: DashboardActor,
  id: string,
  input: Pick<EndpointFormInput, "filter" | "events">,
): Promise<{ ok: true; endpoint: WebhookEndpointRow } | { ok: false; errors: EndpointFormErrors }> {
  assertCan(actor, "webhooks:write");
  const filter = parseEventFilter({ ...input, url: undefined });
  if ("errors" in filter) return { ok: false, errors: filter.errors };
  const events = filter.events as EventType[];
  const endpoint = await inTransaction(db, async (tx) => {
    const row = await updateWebhookEndpoint(tx, ownerOf(actor), id, { events }, undefined);
    await recordAudit(tx, actor, { action: "webhook_endpoint.updated", target: id, details: { events } });
    return row;
  });
  return { ok: true, endpoint };
}

/** Disables (no deliveries) or enables an endpoint; audited. */
export async function setDashboardWebhookActive(
  db: Db,
  actor: DashboardActor,
  id: string,
  active: boolean,
): Promise<WebhookEndpointRow> {
  assertCan(actor, "webhooks:write");
  return inTransaction(db, async (tx) => {
    const row = await updateWebhookEndpoint(tx, ownerOf(actor), id, { active }, undefined);
    await recordAudit(tx, actor, {
      action: active ? "webhook_endpoint.enabled" : "webhook_endpoint.disabled",
      target: id,
    });
    return row;
  });
}

/**
 * Queues the endpoint's deliveries that gave up, of events of the last 7 days, for one more attempt now (at most
 * 500 a time), as POST /v1/webhooks/:id/resend_failed does; audited under the user.
 */
export async function resendDashboardFailed(db: Db, actor: DashboardActor, id: string): Promise<ResendFailedResult> {
  assertCan(actor, "webhooks:write");
  return inTransaction(db, (tx) => resendFailedWithAudit(tx, ownerOf(actor), id, undefined, { actor }));
}

/** Deletes an endpoint (its delivery history stays); audited. */
export async function deleteDashboardWebhook(db: Db, actor: DashboardActor, id: string): Promise<void> {
  assertCan(actor, "webhooks:write");
  await inTransaction(db, async (tx) => {
    await deleteWebhookEndpoint(tx, ownerOf(actor), id);
    await recordAudit(tx, actor, { action: "webhook_endpoint.deleted", target: id });
  });
}
