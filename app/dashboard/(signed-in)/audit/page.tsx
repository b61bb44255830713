import Link from "next/link";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { getDb } from "@/lib/platform/db/client";
import { AUDIT_PAGE_SIZE, listAudit } from "@/lib/identity/users/list-audit";

export const dynamic = "force-dynamic";

/** The audit log (owners only: `audit:read`): who did what, when, from where. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<{ after?: string }> }) {
  const user = await requirePageUser("audit:read");
  const { after } = await searchParams;
  const { entries, hasMore } = await listAudit(getDb(), user.merchantId, { after });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Audit log</h1>
      <p className="text-sm text-slate-600">
        Every change made in this account, newest first, {AUDIT_PAGE_SIZE} a page.
      </p>
      <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
        {entries.map((e) => (
          <li key={e.id} data-audit={e.action} className="px-4 py-3 text-sm">
            <p className="flex flex-wrap gap-x-3">
              <span className="font-mono font-medium">{e.action}</span>
              <span className="text-slate-700">{e.email ?? "operator (CLI)"}</span>
            </p>
            <p className="truncate text-xs text-slate-600">
              <time dateTime={e.created_at}>{e.created_at.replace("T", " ").slice(0, 19)} UTC</time>
              {e.ip ? ` · ${e.ip}` : ""}
              {e.user_agent ? ` · ${e.user_agent}` : ""}
            </p>
          </li>
        ))}
      </ul>
      <nav aria-label="Audit log pages" className="flex gap-4 text-sm font-medium">
        {after && (
          <Link href="/dashboard/audit" className="text-slate-900 underline">
            Newest
          </Link>
        )}
        {hasMore && (
          <Link
            href={`/dashboard/audit?after=${encodeURIComponent(entries.at(-1)!.id)}`}
            className="text-slate-900 underline"
          >
            Older entries
          </Link>
        )}
      </nav>
    </div>
  );
}
