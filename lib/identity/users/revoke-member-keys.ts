import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { scopesBeyondRole } from "./grantable-scopes";
import type { Role } from "./roles";

// A key still working: not revoked, or a rolled key in its overlap (revoked_at ahead).
const WORKING = "(revoked_at is null or revoked_at > now())";

/**
 * Revokes, in the caller's transaction, the working keys a member created (or rolled into) that they could not
 * create now: all of them when `role` is null (the member leaves), else those holding a scope the new role may
 * not give (docs/DASHBOARD.md#roles). The revocation trigger evicts them from every process's key cache at
 * commit. Returns their ids, for the audit entry.
 */
export async function revokeMemberKeys(tx: Db, merchantId: string, userId: string, role: Role | null) {
  const keys = await query<{ id: string; scopes: string[] }>(
    tx,
    `select id, scopes from api_keys where merchant_id = $1 and created_by_user_id = $2 and ${WORKING}
      order by id for update`,
    [merchantId, userId],
  );
  const ids = keys.filter((k) => role === null || scopesBeyondRole(role, k.scopes).length > 0).map((k) => k.id);
  if (ids.length > 0)
    await query(tx, `update api_keys set revoked_at = now() where id = any($1::text[]) and ${WORKING}`, [ids]);
  return ids;
}
