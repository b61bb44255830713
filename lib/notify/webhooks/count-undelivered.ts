import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/**
 * Deliveries waiting for an attempt, and those given up in the last 24 hours, per mode, with the age of the
 * oldest (over webhook_deliveries_undelivered_idx: delivered ones are not read).
 */
export function countUndeliveredWebhooks(db: Db) {
  return query<{ mode: Mode; status: "pending" | "failed"; count: number; oldest_seconds: number }>(
    db,
    `select mode, status, count(*)::int as count,
            coalesce(extract(epoch from now() - min(updated_at)), 0)::float8 as oldest_seconds
       from webhook_deliveries
      where status = 'pending' or (status = 'failed' and updated_at > now() - interval '24 hours')
      group by mode, status`,
  );
}
