import { requirePageUser } from "@/lib/auth/guard";
import { getDb } from "@/lib/db/client";
import { AUDIT_PAGE_SIZE, listAudit } from "@/lib/users/list-audit";

export const dynamic = "force-dynamic";

/** The audit log (owners only: `audit:read`): who did what, when, from where. */
export default async function AuditPage() {
  const user = await requirePageUser("audit:read");
  const entries = await listAudit(getDb(), user.merchantId);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Audit log</h1>
      <p className="text-sm text-slate-600">The latest {AUDIT_PAGE_SIZE} changes made in this account, newest first.</p>
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
    </div>
  );
}
