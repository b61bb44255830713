import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/**
 * Payouts by state, for the metrics: those not yet final per (mode, chain, status) with the age of the oldest
 * and how many have waited for treasury funds (pending, nothing queued) longer than `liquidityAlertMinutes`;
 * and those that ended (confirmed, failed, blocked) in the last 24 hours. Over indexes only: open payouts'
 * status, and updated_at.
 */
export async function countPayouts(db: Db, liquidityAlertMinutes: number) {
  const [open, finished] = await Promise.all([
    query<{ mode: Mode; chain: string; status: string; count: number; oldest_seconds: number; overdue: number }>(
      db,
      `select mode, chain, status, count(*)::int as count,
              extract(epoch from now() - min(created_at))::float8 as oldest_seconds,
              count(*) filter (where status = 'pending' and outbound_id is null
                                 and created_at < now() - make_interval(mins => $1))::int as overdue
         from payouts where status in ('pending', 'review_required', 'processing')
        group by mode, chain, status`,
      [liquidityAlertMinutes],
    ),
    query<{ mode: Mode; chain: string; status: string; count: number }>(
      db,
      `select mode, chain, status, count(*)::int as count from payouts
        where updated_at > now() - interval '24 hours' and status in ('confirmed', 'failed', 'blocked')
        group by mode, chain, status`,
    ),
  ]);
  return { open, finished };
}
