import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/**
 * Refunds by state, for the metrics: those not yet final per (mode, chain, status) with the age of the oldest
 * (a `requires_action` one waits for its payer, up to the claim window; a `pending` one for the treasury), and
 * those that ended (succeeded, failed, canceled) in the last 24 hours. Over the partial index of open refunds
 * and updated_at.
 */
export async function countRefunds(db: Db) {
  const [open, finished] = await Promise.all([
    query<{ mode: Mode; chain: string; status: string; count: number; oldest_seconds: number }>(
      db,
      `select mode, chain, status, count(*)::int as count,
              extract(epoch from now() - min(created_at))::float8 as oldest_seconds
         from refunds where status in ('requires_action', 'pending', 'processing')
        group by mode, chain, status`,
    ),
    query<{ mode: Mode; chain: string; status: string; count: number }>(
      db,
      `select mode, chain, status, count(*)::int as count from refunds
        where updated_at > now() - interval '24 hours' and status in ('succeeded', 'failed', 'canceled')
        group by mode, chain, status`,
    ),
  ]);
  return { open, finished };
}
