import { CreateKeyForm } from "@/components/dashboard/create-key-form";
import { KeyRowActions } from "@/components/dashboard/key-row-actions";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { listModeKeys } from "@/lib/dashboard/actions/api-keys";
import { getDb } from "@/lib/platform/db/client";
import { grantableScopes } from "@/lib/identity/users/grantable-scopes";
import { DEFAULT_SCOPES } from "@/lib/identity/api-keys/scopes";
import { can } from "@/lib/identity/users/roles";
import { createKey, revokeKey, rollKey } from "./actions";

export const dynamic = "force-dynamic";

const when = (iso: string) => iso.slice(0, 16).replace("T", " ");

/** "all" for every default scope (plus any extra, such as sandbox:chains), else the list. */
function scopesLabel(scopes: string[]): string {
  if (!DEFAULT_SCOPES.every((s) => scopes.includes(s))) return scopes.join(", ");
  const extra = scopes.filter((s) => !(DEFAULT_SCOPES as string[]).includes(s));
  return extra.length ? `all, ${extra.join(", ")}` : "all";
}

/**
 * API keys of the selected mode; developers and up create, roll and revoke (live: step-up; docs/DASHBOARD.md#api-keys).
 */
export default async function KeysPage() {
  const [user, mode] = await Promise.all([requirePageUser("keys:read"), dashboardMode()]);
  const keys = await listModeKeys(getDb(), { merchantId: user.merchantId, mode });
  const writer = can(user.role, "keys:write");
  const grantable = grantableScopes(user.role);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">API keys</h1>
      {writer && mode === "live" && (
        <p className="text-sm text-slate-700">
          Live keys move real money: creating, rolling or revoking one asks for your second factor.
        </p>
      )}
      {writer && (
        <CreateKeyForm
          action={createKey}
          mode={mode}
          scopes={grantable}
          withheld={DEFAULT_SCOPES.filter((s) => !grantable.includes(s))}
        />
      )}
      {keys.length === 0 ? (
        <p className="text-sm text-slate-700">No {mode} keys. Create one to call the API.</p>
      ) : (
        <ul aria-label="Keys" className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          {keys.map((k) => (
            <li
              key={k.id}
              data-key={k.id}
              data-status={k.status}
              className="flex flex-wrap gap-x-3 gap-y-1 px-4 py-3 text-sm"
            >
              <span className="font-mono break-all">{k.display}</span>
              <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{k.mode}</span>
              <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">
                {k.status === "expiring" ? `works until ${when(k.revoked_at!)} UTC` : k.status}
              </span>
              <span className="w-full text-xs break-words text-slate-600">Scopes: {scopesLabel(k.scopes)}</span>
              <span className="w-full text-xs text-slate-600">
                {k.id} · created {when(k.created_at)} · last used {k.last_used_at ? when(k.last_used_at) : "never"}
              </span>
              {writer && (
                <KeyRowActions
                  id={k.id}
                  display={k.display}
                  active={k.status === "active"}
                  roll={rollKey}
                  revoke={revokeKey}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
