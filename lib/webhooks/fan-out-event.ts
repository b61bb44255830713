import { newId } from "@/lib/crypto/random";
import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { Mode } from "@/lib/keys/api-key-format";
import { enqueueJob } from "@/lib/jobs/enqueue-job";

/**
 * Creates one delivery per active endpoint of the merchant and mode whose filter matches (empty = all)
 * and enqueues one job that makes all their first attempts, in the event's transaction: a committed event
 * always has its deliveries.
 */
export async function fanOutEvent(db: Db, event: { id: string; type: string; merchantId: string; mode: Mode }): Promise<string[]> {
  const endpoints = await query<{ id: string }>(
    db,
    "select id from webhook_endpoints where merchant_id = $1 and mode = $2 and active and deleted_at is null and (cardinality(events) = 0 or $3 = any(events)) order by created_at",
    [event.merchantId, event.mode, event.type],
  );
  const ids: string[] = [];
  for (const endpoint of endpoints) {
    const id = newId("whd_");
    await query(db, "insert into webhook_deliveries (id, event_id, endpoint_id, merchant_id, mode, status) values ($1, $2, $3, $4, $5, 'pending')", [
      id,
      event.id,
      endpoint.id,
      event.merchantId,
      event.mode,
    ]);
    ids.push(id);
  }
  if (ids.length) await enqueueJob(db, "deliver_event", { eventId: event.id });
  return ids;
}
