import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import type { Mode } from "@/lib/kernel/mode";

/**
 * How long a claimed attempt may take before the sweeper treats its worker as dead: three times an attempt's
 * 10 s timeout (send-webhook.ts), so a worker that died mid-attempt costs its deliveries about a minute, not
 * several (a live worker slower than this makes a second attempt of it: at least once, as promised).
 */
export const ATTEMPT_LEASE_MS = 30_000;
const DEFER_MS = 2_000;

/** A delivery whose next attempt this worker now owns, with what sending it takes. */
export interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  /** This attempt's number. */
  attempt_count: number;
  mode: Mode;
  body: string;
  url: string;
  /** False when the endpoint was disabled or deleted since the event. */
  active: boolean;
  encrypted_secret: string;
}

/**
 * Claims the next attempt of every due pending delivery of an event (first attempts) or of one delivery (a
 * retry) with one atomic update: the attempt number, and a lease in next_attempt_at, so a duplicate job
 * finds nothing due and a worker that dies holding the claim is found by the stalled sweep.
 */
export function claimDeliveries(
  db: Db,
  target: { eventId: string } | { deliveryId: string },
): Promise<ClaimedDelivery[]> {
  const [column, value] = "eventId" in target ? ["event_id", target.eventId] : ["id", target.deliveryId];
  return query<ClaimedDelivery>(
    db,
    `with claimed as (
       update webhook_deliveries set attempt_count = attempt_count + 1,
         next_attempt_at = now() + make_interval(secs => $2::float8 / 1000), updated_at = now()
       where ${column} = $1 and status = 'pending' and (next_attempt_at is null or next_attempt_at <= now())
       returning id, event_id, endpoint_id, attempt_count, mode)
     select c.id, c.endpoint_id, c.attempt_count, c.mode, e.body, w.url, (w.active and w.deleted_at is null) as active,
       w.encrypted_secret
     from claimed c join events e on e.id = c.event_id join webhook_endpoints w on w.id = c.endpoint_id`,
    [value, ATTEMPT_LEASE_MS],
  );
}

/** Gives claimed attempts back (their number is not used) and tries them again shortly. */
export async function deferDeliveries(db: Db, ids: string[]): Promise<void> {
  const runAt = new Date(Date.now() + DEFER_MS);
  await inTransaction(db, async (tx) => {
    await query(
      tx,
      "update webhook_deliveries " +
        "set attempt_count = attempt_count - 1, next_attempt_at = $2, updated_at = now() where id = any($1)",
      [ids, runAt],
    );
    for (const id of ids) await enqueueJob(tx, "deliver_webhook", { deliveryId: id }, { runAt });
  });
}
