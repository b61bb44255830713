import { createHash } from "node:crypto";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { newId, randomBase62 } from "@/lib/kernel/random";
import { type Actor, recordAudit } from "./audit";
import { EMAIL_PATTERN } from "./create-user";
import { hasSecondFactor } from "./factors/second-factor";
import type { Role } from "./roles";
import { TeamNotFoundError, TeamRuleError } from "./team-errors";

export const INVITATION_DAYS = 7;
export const INVITE_PATH = "/dashboard/invite/";

/** The link's token is 32 base62 characters (~190 bits); only its SHA-256 is stored. */
export const hashInvitationToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}

/** Roles that can approve payouts and make live keys: inviting one needs a second factor of the inviter's own. */
const GUARDED_ROLES: readonly Role[] = ["owner", "admin"];

/**
 * An owner invites an email with a role: returns the invitation and its token (for the link), this once.
 * An email that already belongs to a user (of any merchant: emails are unique) is refused; so is an owner
 * or admin invitation from someone without a second factor. `actor.userId` null: the operator (CLI, or
 * `npm start` inviting the demo owner), who holds the database and has no factor to ask for. Audited.
 */
export async function createInvitation(
  db: Db,
  actor: Actor,
  input: { email: string; role: Role },
  now = new Date(),
): Promise<{ invitation: PendingInvitation; token: string }> {
  const email = input.email.trim();
  if (!EMAIL_PATTERN.test(email)) throw new TeamRuleError("Enter an email address, like ana@shop.test.");
  const token = randomBase62(32);
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
  return inTransaction(db, async (tx) => {
    if (actor.userId && GUARDED_ROLES.includes(input.role) && !(await hasSecondFactor(tx, actor.userId)))
      throw new TeamRuleError(
        `Inviting an ${input.role} needs a second factor on your own account: add one under Security first.`,
      );
    const [taken] = await query(tx, "select 1 from users where lower(email) = lower($1)", [email]);
    if (taken) throw new TeamRuleError(`${email} already has a dashboard account.`);
    const id = newId("inv_");
    await query(
      tx,
      `insert into invitations (id, merchant_id, email, role, token_hash, invited_by, expires_at, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [id, actor.merchantId, email, input.role, hashInvitationToken(token), actor.userId ?? "operator", expiresAt, now],
    );
    await recordAudit(tx, actor, { action: "invitation.created", target: id, details: { email, role: input.role } });
    return {
      invitation: { id, email, role: input.role, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() },
      token,
    };
  });
}

/** Invitations of a merchant still waiting to be accepted (not used, revoked or expired), newest first. */
export async function listPendingInvitations(
  db: Db,
  merchantId: string,
  now = new Date(),
): Promise<PendingInvitation[]> {
  const rows = await query<{ id: string; email: string; role: Role; created_at: Date; expires_at: Date }>(
    db,
    `select id, email, role, created_at, expires_at from invitations
      where merchant_id = $1 and used_at is null and revoked_at is null and expires_at > $2
      order by created_at desc, id`,
    [merchantId, now],
  );
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role,
    createdAt: r.created_at.toISOString(),
    expiresAt: r.expires_at.toISOString(),
  }));
}

/** Revokes a pending invitation of the actor's merchant: its link stops working. Audited. */
export async function revokeInvitation(db: Db, actor: Actor & { userId: string }, id: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [row] = await query<{ email: string }>(
      tx,
      `update invitations set revoked_at = now()
        where id = $1 and merchant_id = $2 and used_at is null and revoked_at is null returning email`,
      [id, actor.merchantId],
    );
    if (!row) throw new TeamNotFoundError("No such pending invitation.");
    await recordAudit(tx, actor, { action: "invitation.revoked", target: id, details: { email: row.email } });
  });
}
