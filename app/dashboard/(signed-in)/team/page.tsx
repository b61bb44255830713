import { InviteForm } from "@/components/dashboard/invite-form";
import { TeamActionForm } from "@/components/dashboard/team-action-form";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { getDb } from "@/lib/platform/db/client";
import { listPendingInvitations } from "@/lib/identity/users/invitations";
import { listMembers } from "@/lib/identity/users/list-members";
import { can, USER_ROLES } from "@/lib/identity/users/roles";
import { changeRole, inviteMember, removeTeamMember, revokeInvite } from "./actions";

export const dynamic = "force-dynamic";

const small = "rounded-md border border-slate-300 px-2 py-1 text-sm";
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "—");

/** The team (team:read): members and roles; owners (team:write) invite, change roles, remove, revoke. */
export default async function TeamPage() {
  const user = await requirePageUser("team:read");
  const owner = can(user.role, "team:write");
  const [members, invitations] = await Promise.all([
    listMembers(getDb(), user.merchantId),
    owner ? listPendingInvitations(getDb(), user.merchantId) : Promise.resolve([]),
  ]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Team</h1>
      {owner && <InviteForm action={inviteMember} />}
      <section aria-labelledby="members-heading">
        <h2 id="members-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Members
        </h2>
        <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          {members.map((m) => (
            <li key={m.id} data-member={m.email} className="space-y-2 px-4 py-3 text-sm">
              <p className="flex flex-wrap gap-x-3">
                <span className="min-w-0 break-all font-medium">{m.email}</span>
                <span data-role className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">
                  {m.role}
                </span>
                {m.id === user.id && <span className="text-xs text-slate-600">(you)</span>}
              </p>
              <p className="text-xs text-slate-600">
                Joined {day(m.joinedAt)} · last sign-in {m.lastSignInAt ? day(m.lastSignInAt) : "not known"}
              </p>
              <p data-member-keys className="break-all text-xs text-slate-600">
                {m.keys.length === 0
                  ? "No API keys of theirs"
                  : `API keys they created (revoked if they leave): ` +
                    `${m.keys.map((k) => `${k.label} (${k.mode})`).join(", ")}`}
              </p>
              {owner && (
                <div className="flex flex-wrap gap-3">
                  <TeamActionForm action={changeRole} hidden={{ member: m.id }} label={`Role of ${m.email}`}>
                    <label htmlFor={`role-${m.id}`} className="sr-only">
                      New role for {m.email}
                    </label>
                    <select id={`role-${m.id}`} name="role" defaultValue={m.role} className={small}>
                      {USER_ROLES.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </select>
                    <button type="submit" className={small} aria-label={`Change role of ${m.email}`}>
                      Change role
                    </button>
                  </TeamActionForm>
                  <TeamActionForm action={removeTeamMember} hidden={{ member: m.id }} label={`Remove ${m.email}`}>
                    <button type="submit" className={`${small} text-red-800`} aria-label={`Remove ${m.email}`}>
                      Remove
                    </button>
                  </TeamActionForm>
                </div>
              )}
            </li>
          ))}
        </ul>
      </section>
      {owner && (
        <section aria-labelledby="invitations-heading">
          <h2 id="invitations-heading" className="mb-3 text-lg font-semibold text-slate-900">
            Pending invitations
          </h2>
          {invitations.length === 0 ? (
            <p className="text-sm text-slate-700">No pending invitations. Invite a teammate above.</p>
          ) : (
            <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
              {invitations.map((i) => (
                <li
                  key={i.id}
                  data-invitation={i.email}
                  className="flex flex-wrap items-center gap-3 px-4 py-3 text-sm"
                >
                  <span className="min-w-0 break-all font-medium">{i.email}</span>
                  <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{i.role}</span>
                  <span className="text-xs text-slate-600">expires {day(i.expiresAt)}</span>
                  <TeamActionForm action={revokeInvite} hidden={{ invitation: i.id }} label={`Revoke ${i.email}`}>
                    <button type="submit" className={small} aria-label={`Revoke invitation for ${i.email}`}>
                      Revoke
                    </button>
                  </TeamActionForm>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
