import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

export const AUDIT_PAGE_SIZE = 50;

/**
 * The merchant's audit entries, newest first, with the acting user's email (null: the CLI), a page at a
 * time: `after` is the last entry id of the previous page (a keyset cursor: entries written meanwhile never
 * shift a page; another merchant's id matches nothing). A member removed since (their user row is gone) is
 * named by the email their `user.removed` entry kept.
 */
export async function listAudit(db: Db, merchantId: string, opts: { after?: string; limit?: number } = {}) {
  const limit = opts.limit ?? AUDIT_PAGE_SIZE;
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
                                where r.merchant_id = a.merchant_id and r.action = 'user.removed'
                                and r.target = a.user_id
                                limit 1), a.user_id) as email
       from audit_log a left join users u on u.id = a.user_id
      where a.merchant_id = $1
        and ($3::text is null or (a.created_at, a.id) < (select c.created_at, c.id from audit_log c
                                                          where c.id = $3 and c.merchant_id = $1))
      order by a.created_at desc, a.id desc limit $2`,
    [merchantId, limit + 1, opts.after ?? null],
  );
  return {
    entries: rows.slice(0, limit).map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
    hasMore: rows.length > limit,
  };
}

/** The audit entries about one target (a payout, a key), oldest first, with the acting user's email (null: the CLI). */
export async function listAuditOfTarget(db: Db, merchantId: string, target: string) {
  const rows = await query<{ action: string; created_at: Date; email: string | null }>(
    db,
    `select a.action, a.created_at, u.email from audit_log a left join users u on u.id = a.user_id
      where a.target = $1 and a.merchant_id = $2 order by a.created_at`,
    [target, merchantId],
  );
  return rows.map((r) => ({ action: r.action, createdAt: r.created_at, email: r.email }));
}
