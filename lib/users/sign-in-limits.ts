import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";

/** docs/DASHBOARD.md#sign-in-limits: failures counted over a sliding 15 minutes. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Failed passwords for one account (since its last success) before it must wait. */
export const ACCOUNT_FAILURE_LIMIT = 5;
/** Failed sign-ins from one IP, whatever the accounts, before it must wait. */
export const IP_FAILURE_LIMIT = 20;

/**
 * Milliseconds until the next attempt for this account from this IP is allowed (0: now). The wait ends
 * when the oldest failure that counts leaves the window.
 */
export async function signInWaitMs(db: Db, email: string, ip: string, nowMs = Date.now()): Promise<number> {
  const since = new Date(nowMs - SIGN_IN_WINDOW_MS);
  const [row] = await query<{ account_oldest: Date | null; ip_oldest: Date | null }>(
    db,
    `select
       (select min(created_at) from (
          select created_at from sign_in_attempts
           where email = $1 and not succeeded and created_at > greatest($3::timestamptz,
             coalesce((select max(created_at) from sign_in_attempts where email = $1 and succeeded), $3::timestamptz))
           order by created_at desc limit $4) a
         having count(*) >= $4) as account_oldest,
       (select min(created_at) from (
          select created_at from sign_in_attempts
           where ip = $2 and not succeeded and created_at > $3::timestamptz
           order by created_at desc limit $5) i
         having count(*) >= $5) as ip_oldest`,
    [email, ip, since, ACCOUNT_FAILURE_LIMIT, IP_FAILURE_LIMIT],
  );
  const waits = [row?.account_oldest, row?.ip_oldest]
    .filter((d): d is Date => d instanceof Date)
    .map((d) => d.getTime() + SIGN_IN_WINDOW_MS - nowMs);
  return Math.max(0, ...waits);
}

/** How long sign-in attempts are kept (far past the limits' window: a record of who tried). */
export const SIGN_IN_ATTEMPTS_KEPT_DAYS = 30;

/** Deletes attempts older than the retention, at most `batch` per call. */
export async function pruneSignInAttempts(db: Db, batch = 1000): Promise<number> {
  const rows = await query<{ id: string }>(
    db,
    `delete from sign_in_attempts where id in (
       select id from sign_in_attempts where created_at < now() - ($1::int * interval '1 day') limit $2)
     returning id`,
    [SIGN_IN_ATTEMPTS_KEPT_DAYS, batch],
  );
  return rows.length;
}
