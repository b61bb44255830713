import Link from "next/link";
import { Pager } from "@/components/dashboard/pager";
import { UtcTime } from "@/components/dashboard/status-badge";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { loadEventsPage } from "@/lib/dashboard/views/events-pages";
import { getDb } from "@/lib/platform/db/client";
import { EVENT_TYPES } from "@/lib/notify/events/event-types";

export const dynamic = "force-dynamic";

type Query = Record<string, string | string[] | undefined>;
const field = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-base sm:w-72";

/** The selected mode's events, newest first, optionally of one type (as GET /v1/events). */
export default async function EventsPage({ searchParams }: { searchParams: Promise<Query> }) {
  const [user, mode, raw] = await Promise.all([requirePageUser("events:read"), dashboardMode(), searchParams]);
  const query = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const page = await loadEventsPage(getDb(), { merchantId: user.merchantId, mode }, query);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Events</h1>
      <form
        method="get"
        className="flex flex-wrap items-end gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
      >
        <div className="w-full sm:w-auto">
          <label htmlFor="type" className="text-sm font-medium text-slate-800">
            Type
          </label>
          <select
            id="type"
            name="type"
            defaultValue={query.type ?? ""}
            className={field}
            aria-invalid={page.typeError ? true : undefined}
            aria-describedby={page.typeError ? "type-error" : undefined}
          >
            <option value="">Any type</option>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          {page.typeError && (
            <p id="type-error" className="mt-1 text-sm text-red-700">
              {page.typeError}
            </p>
          )}
        </div>
        <button
          type="submit"
          className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700"
        >
          Filter
        </button>
      </form>
      {page.staleCursor ? (
        <p className="text-sm text-slate-700">
          This page of results is no longer available.{" "}
          <Link href="/dashboard/events" className="underline">
            Start from the newest events
          </Link>
          .
        </p>
      ) : page.events.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-sm text-slate-700">
          {page.type
            ? `No ${page.type} events in ${mode}. Choose another type or any type.`
            : `No ${mode} events yet. They appear as payments and payouts change status: create a payment to start.`}
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          {page.events.map((e) => (
            <li key={e.id} data-event={e.type} className="space-y-1 px-4 py-3 text-sm">
              <p className="flex flex-wrap gap-x-3">
                <Link href={`/dashboard/events/${e.id}`} className="font-mono font-medium underline underline-offset-2">
                  {e.type}
                </Link>
                <span className="text-xs text-slate-600">
                  <UtcTime iso={e.created_at} />
                </span>
              </p>
              <p className="truncate font-mono text-xs text-slate-600">
                {e.id}
                {e.object_id ? ` · ${e.object_id}` : ""}
              </p>
            </li>
          ))}
        </ul>
      )}
      <Pager path="/dashboard/events" query={query} previous={page.links.previous} next={page.links.next} />
    </div>
  );
}
