import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { type Actor, recordAudit } from "./audit";
import { inTransaction } from "@/lib/db/client";
import type { Role } from "./roles";

export interface SessionUser {
  id: string;
  merchantId: string;
  merchantName: string;
  email: string;
  role: Role;
}

/**
 * The user a session belongs to, read fresh on every request: null when the user is gone or the session's
 * version is older than the user's (signed out of all sessions). Role changes apply at once.
 */
export async function loadSessionUser(db: Db, userId: string, sessionVersion: number): Promise<SessionUser | null> {
  const [row] = await query<{
    id: string;
    merchant_id: string;
    merchant_name: string;
    email: string;
    role: Role;
    session_version: number;
  }>(
    db,
    `select u.id, u.merchant_id, m.name as merchant_name, u.email, u.role, u.session_version
       from users u join merchants m on m.id = u.merchant_id where u.id = $1`,
    [userId],
  );
  if (!row || row.session_version !== sessionVersion) return null;
  return { id: row.id, merchantId: row.merchant_id, merchantName: row.merchant_name, email: row.email, role: row.role };
}

/** Signs the user out of every session (each carries the old version), audited. */
export async function signOutEverywhere(db: Db, actor: Actor & { userId: string }): Promise<void> {
  await inTransaction(db, async (tx) => {
    await query(tx, "update users set session_version = session_version + 1 where id = $1", [actor.userId]);
    await recordAudit(tx, actor, { action: "user.signed_out_everywhere", target: actor.userId });
  });
}
