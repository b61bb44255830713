import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { type Actor, recordAudit } from "./audit";
import { LAST_OWNER_MESSAGE, lockTeamMember } from "./change-member-role";
import { revokeMemberKeys } from "./revoke-member-keys";
import { TeamRuleError } from "./team-errors";

/**
 * Removes a member from the actor's merchant: the user row goes, so every session of theirs is refused from
 * the next request (sessions are checked against the user and its session_version on every request) and the
 * email may be invited again; the API keys they created are revoked with it. Never the last owner. Audited as
 * `user.removed` (with the keys revoked) in the same transaction. Returns the revoked keys' ids.
 */
export async function removeMember(db: Db, actor: Actor & { userId: string }, userId: string): Promise<string[]> {
  return inTransaction(db, async (tx) => {
    const { member, owners } = await lockTeamMember(tx, actor.merchantId, userId);
    if (member.role === "owner" && owners <= 1) throw new TeamRuleError(LAST_OWNER_MESSAGE);
    // Raised first so that a session read racing this transaction is refused too.
    await query(tx, "update users set session_version = session_version + 1 where id = $1", [member.id]);
    await query(tx, "delete from users where id = $1", [member.id]);
    const revokedKeys = await revokeMemberKeys(tx, actor.merchantId, member.id, null);
    await recordAudit(tx, actor, {
      action: "user.removed",
      target: member.id,
      details: { email: member.email, role: member.role, revoked_keys: revokedKeys },
    });
    return revokedKeys;
  });
}
