import { CreateKeyForm } from "@/components/dashboard/create-key-form";
import { requirePageUser } from "@/lib/auth/guard";
import { dashboardMode } from "@/lib/auth/mode";
import { LIVE_KEYS_NOTE, listModeKeys } from "@/lib/dashboard/api-keys";
import { getDb } from "@/lib/db/client";
import { can } from "@/lib/users/roles";
import { createKey } from "./actions";

export const dynamic = "force-dynamic";

/** API keys of the selected mode; developers and up may create one (docs/DASHBOARD.md#roles). */
export default async function KeysPage() {
  const [user, mode] = await Promise.all([requirePageUser("keys:read"), dashboardMode()]);
  const keys = await listModeKeys(getDb(), { merchantId: user.merchantId, mode });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">API keys</h1>
      {can(user.role, "keys:write") &&
        (mode === "live" ? (
          <p className="text-sm text-slate-700">{LIVE_KEYS_NOTE}</p>
        ) : (
          <CreateKeyForm action={createKey} />
        ))}
      {keys.length === 0 ? (
        <p className="text-sm text-slate-700">No {mode} keys. Create one to call the API.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          {keys.map((k) => (
            <li key={k.id} data-key={k.id} className="flex flex-wrap gap-x-3 gap-y-1 px-4 py-3 text-sm">
              <span className="font-mono">{k.display}</span>
              <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{k.status}</span>
              <span className="w-full text-xs text-slate-600">
                {k.id} · created {k.created_at.slice(0, 10)} · last used {k.last_used_at?.slice(0, 10) ?? "never"}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
