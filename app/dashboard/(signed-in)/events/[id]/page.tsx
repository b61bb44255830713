import Link from "next/link";
import { notFound } from "next/navigation";
import { DeliveriesList } from "@/components/dashboard/deliveries-list";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { loadEventDetail } from "@/lib/dashboard/views/events-pages";
import { getDb } from "@/lib/platform/db/client";
import { can } from "@/lib/identity/users/roles";
import { resendWebhook } from "../../payments/actions";

export const dynamic = "force-dynamic";

/** One event: its JSON body as delivered, and its webhook deliveries. Another merchant's or mode's → 404. */
export default async function EventPage({ params }: { params: Promise<{ id: string }> }) {
  const [user, mode, { id }] = await Promise.all([requirePageUser("events:read"), dashboardMode(), params]);
  const detail = await loadEventDetail(getDb(), { merchantId: user.merchantId, mode }, id);
  if (!detail) notFound();
  const object = detail.event.data.object as { id?: string; object?: string };
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="break-all text-2xl font-semibold text-slate-900">{detail.event.type}</h1>
        <p className="break-all font-mono text-xs text-slate-600">{detail.event.id}</p>
        {object.object === "payment" && object.id && (
          <Link href={`/dashboard/payments/${object.id}`} className="text-sm underline underline-offset-2">
            Open payment {object.id}
          </Link>
        )}
      </div>
      <section aria-labelledby="body-heading">
        <h2 id="body-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Event body
        </h2>
        <pre
          data-testid="event-json"
          className={
            "whitespace-pre-wrap rounded-lg bg-slate-900 p-4 " +
            "font-mono text-xs text-slate-100 [overflow-wrap:anywhere]"
          }
        >
          {detail.json}
        </pre>
      </section>
      {can(user.role, "webhooks:read") && (
        <section aria-labelledby="deliveries-heading">
          <h2 id="deliveries-heading" className="mb-3 text-lg font-semibold text-slate-900">
            Webhook deliveries
          </h2>
          <DeliveriesList
            deliveries={detail.deliveries}
            resend={can(user.role, "webhooks:write") ? resendWebhook : undefined}
            context={{ event: detail.event.id }}
          />
        </section>
      )}
    </div>
  );
}
