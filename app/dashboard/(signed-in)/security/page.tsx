import { AuthenticatorAppSetup } from "@/components/dashboard/authenticator-app-setup";
import { FactorActionButton } from "@/components/dashboard/factor-action-button";
import { requirePageUser } from "@/lib/auth/guard";
import { getDb } from "@/lib/db/client";
import { unusedRecoveryCodes } from "@/lib/users/factors/recovery-codes";
import { hasConfirmedTotp } from "@/lib/users/factors/totp";
import { listOpenSessions } from "@/lib/users/sessions";
import { endOneSession, newRecoveryCodes, removeApp, startAuthenticatorApp, turnOnAuthenticatorApp } from "./actions";

export const dynamic = "force-dynamic";

const when = (d: Date) => d.toISOString().replace("T", " ").slice(0, 16);
const section = "space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200";

/** The signed-in user's own security: second factors and open sessions (docs/DASHBOARD.md#second-factors). */
export default async function SecurityPage() {
  const user = await requirePageUser();
  const db = getDb();
  const [appOn, codesLeft, sessions] = await Promise.all([
    hasConfirmedTotp(db, user.id),
    unusedRecoveryCodes(db, user.id),
    listOpenSessions(db, user.id),
  ]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Security</h1>
      <section aria-labelledby="factors" className={section}>
        <h2 id="factors" className="text-lg font-semibold text-slate-900">
          Second factors
        </h2>
        {appOn ? (
          <>
            <p className="text-sm text-slate-800">
              Authenticator app: <strong>on</strong>. Recovery codes left: <strong>{codesLeft}</strong>.
            </p>
            <div className="flex flex-wrap gap-3">
              <FactorActionButton action={newRecoveryCodes} label="New recovery codes" />
              <FactorActionButton action={removeApp} label="Remove authenticator app" />
            </div>
          </>
        ) : (
          <>
            <p className="text-sm text-slate-700">
              No second factor yet. Add one: sign-in will ask for its code, and live keys, live webhook endpoints and
              payouts need it.
            </p>
            <AuthenticatorAppSetup start={startAuthenticatorApp} confirm={turnOnAuthenticatorApp} />
          </>
        )}
      </section>
      <section aria-labelledby="sessions" className={section}>
        <h2 id="sessions" className="text-lg font-semibold text-slate-900">
          Sessions
        </h2>
        <ul className="divide-y divide-slate-200">
          {sessions.map((s) => (
            <li key={s.id} data-session={s.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
              <span className="min-w-0 flex-1 break-words text-slate-800">
                {s.id === user.sessionId && <strong>This browser · </strong>}
                {s.userAgent ?? "Unknown browser"} · {s.ip ?? "unknown IP"}
                <span className="block text-xs text-slate-600">
                  Signed in {when(s.createdAt)} UTC · last active {when(s.lastSeenAt)} UTC
                </span>
              </span>
              {s.id !== user.sessionId && (
                <form action={endOneSession}>
                  <input type="hidden" name="session" value={s.id} />
                  <button
                    type="submit"
                    aria-label={`End session signed in ${when(s.createdAt)} UTC`}
                    className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-900"
                  >
                    End session
                  </button>
                </form>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
