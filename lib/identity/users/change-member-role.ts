import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { type Actor, recordAudit } from "./audit";
import { revokeMemberKeys } from "./revoke-member-keys";
import type { Role } from "./roles";
import { TeamNotFoundError, TeamRuleError } from "./team-errors";

export const LAST_OWNER_MESSAGE = "A team keeps at least one owner: make someone else owner first.";

/**
 * Locks the merchant's team rows (so two owners demoting each other at once cannot leave none) and returns
 * the target member and how many owners there are.
 */
export async function lockTeamMember(tx: Db, merchantId: string, userId: string) {
  const team = await query<{ id: string; email: string; role: Role }>(
    tx,
    "select id, email, role from users where merchant_id = $1 order by id for update",
    [merchantId],
  );
  const member = team.find((u) => u.id === userId);
  if (!member) throw new TeamNotFoundError("No such member.");
  return { member, owners: team.filter((u) => u.role === "owner").length };
}

/**
 * Gives a member of the actor's merchant another role, at once (roles are read on every request); the keys they
 * created with a scope the new role may not give are revoked with it. The last owner keeps ownership. Audited as
 * `user.role_changed` (with the keys revoked) in the same transaction. Returns the revoked keys' ids.
 */
export async function changeMemberRole(
  db: Db,
  actor: Actor & { userId: string },
  input: { userId: string; role: Role },
): Promise<string[]> {
  return inTransaction(db, async (tx) => {
    const { member, owners } = await lockTeamMember(tx, actor.merchantId, input.userId);
    if (member.role === input.role) return [];
    if (member.role === "owner" && owners <= 1) throw new TeamRuleError(LAST_OWNER_MESSAGE);
    await query(tx, "update users set role = $2 where id = $1", [member.id, input.role]);
    const revokedKeys = await revokeMemberKeys(tx, actor.merchantId, member.id, input.role);
    await recordAudit(tx, actor, {
      action: "user.role_changed",
      target: member.id,
      details: { email: member.email, from: member.role, to: input.role, revoked_keys: revokedKeys },
    });
    return revokedKeys;
  });
}
