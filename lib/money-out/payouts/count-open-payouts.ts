import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/**
 * Payouts not yet final per (mode, chain, status), the age of the oldest, and how many have waited for
 * treasury funds (pending, nothing queued) longer than `liquidityAlertMinutes`.
 */
export function countOpenPayouts(db: Db, liquidityAlertMinutes: number) {
  return query<{ mode: Mode; chain: string; status: string; count: number; oldest_seconds: number; overdue: number }>(
    db,
    `select mode, chain, status, count(*)::int as count,
            extract(epoch from now() - min(created_at))::float8 as oldest_seconds,
            count(*) filter (where status = 'pending' and outbound_id is null
                               and created_at < now() - make_interval(mins => $1))::int as overdue
       from payouts where status in ('pending', 'review_required', 'processing')
      group by mode, chain, status`,
    [liquidityAlertMinutes],
  );
}
