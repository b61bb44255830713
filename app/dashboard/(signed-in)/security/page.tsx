import { AddFactorPanel } from "@/components/dashboard/add-factor-panel";
import { FactorActionButton } from "@/components/dashboard/factor-action-button";
import { SessionList } from "@/components/dashboard/session-list";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { getDb } from "@/lib/platform/db/client";
import { listPasskeys } from "@/lib/identity/users/factors/passkeys";
import { unusedRecoveryCodes } from "@/lib/identity/users/factors/recovery-codes";
import { hasConfirmedTotp } from "@/lib/identity/users/factors/totp";
import { listOpenSessions } from "@/lib/identity/users/sessions";
import {
  endOneSession,
  newRecoveryCodes,
  passkeyRegistration,
  removeApp,
  removeOnePasskey,
  savePasskey,
  startAuthenticatorApp,
  turnOnAuthenticatorApp,
} from "./actions";

export const dynamic = "force-dynamic";

const section = "space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200";

/** The signed-in user's own security: second factors and open sessions (docs/DASHBOARD.md#second-factors). */
export default async function SecurityPage() {
  const user = await requirePageUser();
  const db = getDb();
  const [appOn, passkeys, codesLeft, sessions] = await Promise.all([
    hasConfirmedTotp(db, user.id),
    listPasskeys(db, user.id),
    unusedRecoveryCodes(db, user.id),
    listOpenSessions(db, user.id),
  ]);
  const anyFactor = appOn || passkeys.length > 0;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Security</h1>
      <section aria-labelledby="factors" className={section}>
        <h2 id="factors" className="text-lg font-semibold text-slate-900">
          Second factors
        </h2>
        <p className="text-sm text-slate-800">
          {anyFactor ? (
            <>
              Authenticator app: <strong>{appOn ? "on" : "off"}</strong>. Passkeys: <strong>{passkeys.length}</strong>.
              Recovery codes left: <strong>{codesLeft}</strong>.
            </>
          ) : (
            "No second factor yet. Add one: sign-in will ask for it, " +
            "and live keys, live webhook endpoints and payouts need it."
          )}
        </p>
        <ul aria-label="Passkeys" className="divide-y divide-slate-200">
          {passkeys.map((p) => (
            <li key={p.id} data-passkey={p.id} className="flex flex-wrap items-center gap-3 py-2 text-sm">
              <span className="min-w-0 flex-1 break-words">
                <strong>{p.name}</strong> · added {p.created_at.toISOString().slice(0, 10)} · last used{" "}
                {p.last_used_at?.toISOString().slice(0, 10) ?? "never"}
              </span>
              <FactorActionButton
                action={removeOnePasskey}
                label={`Remove passkey ${p.name}`}
                hidden={{ passkey: p.id }}
              />
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap gap-3">
          {anyFactor && <FactorActionButton action={newRecoveryCodes} label="New recovery codes" />}
          {appOn && <FactorActionButton action={removeApp} label="Remove authenticator app" />}
        </div>
        <AddFactorPanel
          needsPassword={!anyFactor}
          canAddApp={!appOn}
          startApp={startAuthenticatorApp}
          confirmApp={turnOnAuthenticatorApp}
          passkeyRegistration={passkeyRegistration}
          savePasskey={savePasskey}
        />
      </section>
      <section aria-labelledby="sessions" className={section}>
        <h2 id="sessions" className="text-lg font-semibold text-slate-900">
          Sessions
        </h2>
        <SessionList sessions={sessions} currentId={user.sessionId} endAction={endOneSession} />
      </section>
    </div>
  );
}
