import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";

/**
 * Re-enqueues pending deliveries whose attempt is overdue (its lease or scheduled time passed before
 * `overdueBefore`; a first attempt never claimed, 45 s later still, so a busy queue's backlog is not doubled):
 * their job was held by a worker that died. Bounded per run; the per-delivery job key keeps one queued job per
 * delivery however often the sweep runs.
 */
export async function sweepStalledDeliveries(db: Db, overdueBefore: Date, batch = 500): Promise<number> {
  const stalled = await query<{ id: string }>(
    db,
    `update webhook_deliveries set next_attempt_at = now() where id in (
       select id from webhook_deliveries where status = 'pending'
          and coalesce(next_attempt_at, created_at + interval '45 seconds') < $1
       order by coalesce(next_attempt_at, created_at) limit $2)
     returning id`,
    [overdueBefore, batch],
  );
  for (const { id } of stalled)
    await enqueueJob(db, "deliver_webhook", { deliveryId: id }, { jobKey: `redeliver:${id}` });
  return stalled.length;
}
