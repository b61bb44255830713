import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionButton } from "@/components/dashboard/action-button";
import { EditFilterForm } from "@/components/dashboard/edit-filter-form";
import { WebhookDeliveries } from "@/components/dashboard/webhook-deliveries";
import { DomainError } from "@/lib/kernel/domain-error";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { getDb } from "@/lib/platform/db/client";
import { can } from "@/lib/identity/users/roles";
import { listDeliveryLog } from "@/lib/notify/webhooks/list-delivery-log";
import { getWebhookEndpoint } from "@/lib/notify/webhooks/manage-webhook-endpoint";
import {
  deleteWebhook,
  resendFailedWebhooks,
  resendWebhookEvent,
  sendWebhookTestEvent,
  setWebhookActive,
  updateWebhookFilter,
} from "../actions";

export const dynamic = "force-dynamic";

/** One endpoint of the selected mode (another merchant's or mode's: 404), its controls and delivery log. */
export default async function WebhookPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ starting_after?: string }>;
}) {
  const [user, mode, { id }, { starting_after }] = await Promise.all([
    requirePageUser("webhooks:read"),
    dashboardMode(),
    params,
    searchParams,
  ]);
  const owner = { merchantId: user.merchantId, mode };
  const endpoint = await getWebhookEndpoint(getDb(), owner, id).catch((err: unknown) => {
    if (err instanceof DomainError && err.type === "not_found") notFound();
    throw err;
  });
  const log = await listDeliveryLog(getDb(), owner, { endpointId: id }, { starting_after, limit: 20 });
  const write = can(user.role, "webhooks:write");
  const last = log.data[log.data.length - 1];
  return (
    <div className="space-y-6">
      <Link href="/dashboard/webhooks" className="text-sm text-slate-700 underline">
        ← Webhooks
      </Link>
      <h1 className="break-all text-2xl font-semibold text-slate-900">{endpoint.url}</h1>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Status</dt>
        <dd data-testid="endpoint-status">{endpoint.active ? "enabled" : "disabled"}</dd>
        <dt className="text-slate-600">Events</dt>
        <dd className="break-words">{endpoint.events.length === 0 ? "all events" : endpoint.events.join(", ")}</dd>
        <dt className="text-slate-600">ID</dt>
        <dd className="break-all font-mono text-xs">{endpoint.id}</dd>
        <dt className="text-slate-600">Created</dt>
        <dd>{endpoint.createdAt.toISOString().replace("T", " ").slice(0, 16)} UTC</dd>
      </dl>
      {write && (
        <section
          aria-labelledby="manage-heading"
          className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
        >
          <h2 id="manage-heading" className="text-lg font-semibold text-slate-900">
            Manage
          </h2>
          <div className="flex flex-wrap items-start gap-3">
            <ActionButton action={sendWebhookTestEvent} fields={{ id }} label="Send test event" tone="primary" />
            {endpoint.active && (
              <ActionButton action={resendFailedWebhooks} fields={{ id }} label="Resend failed deliveries" />
            )}
            <ActionButton
              action={setWebhookActive}
              fields={{ id, active: endpoint.active ? "false" : "true" }}
              label={endpoint.active ? "Disable" : "Enable"}
            />
            <ActionButton
              action={deleteWebhook}
              fields={{ id }}
              label="Delete"
              tone="danger"
              confirm={{ question: "Delete this endpoint? It receives nothing more.", label: "Delete endpoint" }}
            />
          </div>
          <EditFilterForm action={updateWebhookFilter} id={id} events={endpoint.events} />
        </section>
      )}
      <section aria-labelledby="log-heading" className="space-y-3">
        <h2 id="log-heading" className="text-lg font-semibold text-slate-900">
          Delivery log
        </h2>
        <WebhookDeliveries
          entries={log.data}
          resend={write ? resendWebhookEvent : undefined}
          empty="No deliveries yet. Send a test event, or create a payment to see one here."
        />
        {log.hasMore && last && (
          <Link href={`?starting_after=${last.id}`} className="text-sm text-slate-800 underline">
            Older deliveries
          </Link>
        )}
      </section>
    </div>
  );
}
