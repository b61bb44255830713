import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";

export const AUDIT_PAGE_SIZE = 50;

/**
 * The merchant's latest audit entries, newest first, with the acting user's email (null: the CLI). A member
 * removed since (their user row is gone) is named by the email their `user.removed` entry kept.
 */
export async function listAudit(db: Db, merchantId: string, limit = AUDIT_PAGE_SIZE) {
  const rows = await query<{
    id: string;
    action: string;
    target: string | null;
    email: string | null;
    ip: string | null;
    user_agent: string | null;
    created_at: Date;
  }>(
    db,
    `select a.id, a.action, a.target, a.ip, a.user_agent, a.created_at,
            coalesce(u.email, (select r.details->>'email' || ' (removed)' from audit_log r
                                where r.merchant_id = a.merchant_id and r.action = 'user.removed' and r.target = a.user_id
                                limit 1), a.user_id) as email
       from audit_log a left join users u on u.id = a.user_id
      where a.merchant_id = $1 order by a.created_at desc, a.id desc limit $2`,
    [merchantId, limit],
  );
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}
