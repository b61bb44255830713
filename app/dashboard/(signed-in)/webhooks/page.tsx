import Link from "next/link";
import { CreateWebhookForm } from "@/components/dashboard/create-webhook-form";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { getDb } from "@/lib/platform/db/client";
import { can } from "@/lib/identity/users/roles";
import { MAX_WEBHOOK_ENDPOINTS } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { listWebhookEndpoints } from "@/lib/notify/webhooks/list-webhook-endpoints";
import { createWebhook } from "./actions";

export const dynamic = "force-dynamic";

/** The mode's webhook endpoints (at most 16, so one page) and, for webhooks:write, "Add an endpoint". */
export default async function WebhooksPage() {
  const [user, mode] = await Promise.all([requirePageUser("webhooks:read"), dashboardMode()]);
  const { rows } = await listWebhookEndpoints(
    getDb(),
    { merchantId: user.merchantId, mode },
    { limit: MAX_WEBHOOK_ENDPOINTS },
  );
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Webhooks</h1>
      {rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-sm text-slate-700">
          No {mode} webhook endpoints. Add one to be told when payments and payouts change.
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          {rows.map((w) => (
            <li key={w.id} data-endpoint={w.id} className="space-y-1 px-4 py-3 text-sm">
              <Link
                href={`/dashboard/webhooks/${w.id}`}
                className="block break-all font-medium text-slate-900 underline"
              >
                {w.url}
              </Link>
              <div className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600">
                <span
                  className={
                    `rounded px-1.5 py-0.5 ` +
                    `${w.active ? "bg-emerald-100 text-emerald-900" : "bg-slate-200 text-slate-800"}`
                  }
                >
                  {w.active ? "enabled" : "disabled"}
                </span>
                <span>{w.events.length === 0 ? "all events" : w.events.join(", ")}</span>
                <span>
                  {w.id} · created {w.createdAt.toISOString().slice(0, 10)}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {can(user.role, "webhooks:write") && (
        <>
          {mode === "live" && (
            <p role="note" className="text-sm text-slate-700">
              Live endpoints receive real payment events: adding one needs your second factor within the last 5 minutes.
            </p>
          )}
          <CreateWebhookForm action={createWebhook} />
        </>
      )}
    </div>
  );
}
