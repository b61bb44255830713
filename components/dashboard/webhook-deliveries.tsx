import type { ActionState } from "@/app/dashboard/(signed-in)/webhooks/actions";
import type { DeliveryLogEntry } from "@/lib/notify/webhooks/list-delivery-log";
import { ActionButton } from "./action-button";

const when = (iso: string) => `${iso.replace("T", " ").slice(0, 19)} UTC`;

/**
 * A delivery log (lib/notify/webhooks/list-delivery-log.ts): each attempt's event, number, status code, latency,
 * response excerpt and time, newest first. With `resend`, each attempt gets a Resend of its event to its
 * endpoint (pass it only to roles with webhooks:write). Usable for an endpoint or for an event.
 */
export function WebhookDeliveries({
  entries,
  resend,
  empty,
}: {
  entries: DeliveryLogEntry[];
  resend?: (prev: ActionState, form: FormData) => Promise<ActionState>;
  empty: string;
}) {
  if (entries.length === 0)
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-sm text-slate-700">
        {empty}
      </p>
    );
  return (
    <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      {entries.map((a) => (
        <li key={a.id} data-attempt={a.id} className="space-y-1 px-4 py-3 text-sm">
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
            <span className="font-mono font-medium">{a.event_type}</span>
            <span
              data-status-code={a.status_code ?? "none"}
              className={
                `rounded px-1.5 py-0.5 text-xs ` +
                `${a.success ? "bg-emerald-100 text-emerald-900" : "bg-red-100 text-red-900"}`
              }
            >
              {a.status_code !== null ? `HTTP ${a.status_code}` : "no response"}
            </span>
            <span className="text-slate-700">attempt {a.attempt}</span>
            <span className="tabular-nums text-slate-700">{a.latency_ms} ms</span>
          </div>
          <p className="break-all font-mono text-xs text-slate-600">
            {a.event_id} · <time dateTime={a.created_at}>{when(a.created_at)}</time>
          </p>
          <p className="break-all text-xs text-slate-600">{a.url}</p>
          {a.error && <p className="break-words text-xs text-red-800">{a.error}</p>}
          {a.response_body && (
            <details className="text-xs">
              <summary className="cursor-pointer text-slate-700">Response</summary>
              <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2">
                {a.response_body.slice(0, 500)}
              </pre>
            </details>
          )}
          {resend && (
            <ActionButton
              action={resend}
              fields={{ endpoint_id: a.endpoint_id, event_id: a.event_id }}
              label="Resend"
              accessibleName={`Resend ${a.event_id}`}
            />
          )}
        </li>
      ))}
    </ul>
  );
}
