import type { DeliveryView } from "@/lib/notify/webhooks/list-event-deliveries";
import type { ActionOutcome } from "@/lib/dashboard/actions/payment-actions";
import { ActionForm } from "./action-form";
import { StatusBadge, UtcTime } from "./status-badge";

/** Webhook deliveries: endpoint, event, latest attempt (number, status code, when), and Resend when allowed. */
export function DeliveriesList({
  deliveries,
  resend,
  context,
}: {
  deliveries: DeliveryView[];
  resend?: (prev: ActionOutcome, form: FormData) => Promise<ActionOutcome>;
  context: Record<string, string>;
}) {
  if (deliveries.length === 0)
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-4 text-sm text-slate-700">
        No webhook deliveries. Add a webhook endpoint (POST /v1/webhooks) to be told about events like these.
      </p>
    );
  return (
    <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      {deliveries.map((d) => (
        <li key={d.id} data-delivery={d.id} className="space-y-2 px-4 py-3 text-sm">
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="font-mono text-xs">{d.event_type}</span>
            <StatusBadge status={d.status} />
          </p>
          <p className="break-all text-slate-700">{d.url}</p>
          <p className="text-xs text-slate-600" data-testid="last-attempt">
            {d.attempt === null ? (
              "Not attempted yet"
            ) : (
              <>
                Attempt {d.attempt} · {d.status_code !== null ? `HTTP ${d.status_code}` : (d.error ?? "no answer")}
                {" · "}
                <UtcTime iso={d.attempted_at!} />
              </>
            )}
          </p>
          {resend && <ActionForm action={resend} label="Resend" hidden={{ ...context, delivery: d.id }} />}
        </li>
      ))}
    </ul>
  );
}
