import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { recordAudit } from "./audit";
import { createUser, UserInputError } from "./create-user";
import { hashInvitationToken } from "./invitations";
import type { Role } from "./roles";

export type InvitationLookup =
  | { state: "valid"; id: string; merchantId: string; merchantName: string; email: string; role: Role }
  | { state: "unknown" | "used" | "revoked" | "expired" };

export const INVITATION_UNUSABLE: Record<Exclude<InvitationLookup["state"], "valid">, string> = {
  unknown: "This invitation link is not valid. Ask an owner of the team for a new one.",
  used: "This invitation has already been used. Sign in, or ask an owner for a new invitation.",
  revoked: "This invitation was revoked. Ask an owner of the team for a new one.",
  expired: "This invitation has expired (links last 7 days). Ask an owner of the team for a new one.",
};

/** What an invitation link leads to; `lock` takes the row (in a transaction) so it is used only once. */
export async function findInvitation(db: Db, token: string, opts: { lock?: boolean } = {}): Promise<InvitationLookup> {
  const [row] = await query<{
    id: string;
    merchant_id: string;
    merchant_name: string;
    email: string;
    role: Role;
    expires_at: Date;
    used_at: Date | null;
    revoked_at: Date | null;
  }>(
    db,
    `select i.id, i.merchant_id, m.name as merchant_name, i.email, i.role, i.expires_at, i.used_at, i.revoked_at
       from invitations i join merchants m on m.id = i.merchant_id
      where i.token_hash = $1${opts.lock ? " for update of i" : ""}`,
    [hashInvitationToken(token)],
  );
  if (!row) return { state: "unknown" };
  if (row.used_at) return { state: "used" };
  if (row.revoked_at) return { state: "revoked" };
  if (row.expires_at.getTime() <= Date.now()) return { state: "expired" };
  return {
    state: "valid",
    id: row.id,
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    email: row.email,
    role: row.role,
  };
}

/**
 * Accepts an invitation: creates the user (the invited email and role, in the inviting merchant) with the
 * chosen password and marks the invitation used, in one transaction, audited as `invitation.accepted` by the
 * new user. An unusable link or an email that became a user meanwhile throws a UserInputError.
 */
export async function acceptInvitation(
  db: Db,
  input: { token: string; password: string; ip: string | null; userAgent: string | null },
): Promise<{ userId: string; email: string }> {
  return inTransaction(db, async (tx) => {
    const invitation = await findInvitation(tx, input.token, { lock: true });
    if (invitation.state !== "valid") throw new UserInputError(INVITATION_UNUSABLE[invitation.state]);
    const { user } = await createUser(tx, {
      merchantId: invitation.merchantId,
      email: invitation.email,
      role: invitation.role,
      password: input.password,
    });
    await query(tx, "update invitations set used_at = now(), used_by = $2 where id = $1", [invitation.id, user.id]);
    await recordAudit(
      tx,
      { merchantId: invitation.merchantId, userId: user.id, ip: input.ip, userAgent: input.userAgent },
      { action: "invitation.accepted", target: invitation.id, details: { email: user.email, role: user.role } },
    );
    return { userId: user.id, email: user.email };
  });
}
