import { newId } from "@/lib/kernel/random";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { insertAttempts, markDelivered, withExcerptFallback } from "./record-attempts";
import type { AttemptResult } from "./send-webhook";

/**
 * Records one endpoint's replay as the next attempt of the event's delivery to it, in a transaction of its
 * own; a successful one also settles a delivery still being retried. An endpoint added after the event has
 * no delivery yet: this manual send becomes a settled one (no automatic retries follow a replay). If the
 * attempt cannot be stored with its response excerpt, it is stored without it.
 */
export async function recordReplayAttempt(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  eventId: string,
  endpointId: string,
  result: AttemptResult,
  /** More writes for the attempt's transaction (the dashboard's audit row). */
  alsoInTransaction?: (tx: Db) => Promise<void>,
): Promise<void> {
  const record = (attempt: AttemptResult) =>
    inTransaction(db, async (tx) => {
      await query(
        tx,
        `insert into webhook_deliveries (id, event_id, endpoint_id, merchant_id, mode, status, attempt_count)
         values ($1, $2, $3, $4, $5, $6, 0) on conflict (event_id, endpoint_id) do nothing`,
        [newId("whd_"), eventId, endpointId, owner.merchantId, owner.mode, attempt.success ? "succeeded" : "failed"],
      );
      // Locked: concurrent replays (and their numbering) of one delivery take turns.
      const [delivery] = await query<{ id: string; last_attempt: number }>(
        tx,
        `select d.id,
           coalesce((select max(attempt) from webhook_attempts a where a.delivery_id = d.id), 0)::int as last_attempt
         from webhook_deliveries d where d.event_id = $1 and d.endpoint_id = $2 for update`,
        [eventId, endpointId],
      );
      await insertAttempts(tx, [{ deliveryId: delivery!.id, number: delivery!.last_attempt + 1, result: attempt }]);
      if (attempt.success) await markDelivered(tx, [delivery!.id]);
      await alsoInTransaction?.(tx);
    });
  await withExcerptFallback(record, result);
}
