import Link from "next/link";
import { UtcTime } from "./status-badge";

type Entry = { id: string | null; type: string; at: string };

/**
 * The payment's history, oldest first: created, each event it emitted (one per status change), and its refunds
 * (linked to the refund).
 */
export function PaymentTimeline({ entries }: { entries: Entry[] }) {
  return (
    <ol className="space-y-2 border-l-2 border-slate-200 pl-4 text-sm" aria-label="Timeline">
      {entries.map((e) => (
        <li key={e.id ?? "created"} data-timeline={e.type}>
          <span className="font-medium text-slate-900">{e.type === "created" ? "Created" : e.type}</span>{" "}
          <span className="text-xs text-slate-600">
            <UtcTime iso={e.at} />
          </span>
          {e.id && (
            <Link
              href={e.id.startsWith("re_") ? `/dashboard/refunds/${e.id}` : `/dashboard/events/${e.id}`}
              className="ml-2 font-mono text-xs underline underline-offset-2"
            >
              {e.id}
            </Link>
          )}
        </li>
      ))}
    </ol>
  );
}
