import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { log } from "@/lib/platform/log";
import { countSignal } from "@/lib/platform/metrics/signals";
import { DELIVERY_LIFECYCLE } from "./delivery-lifecycle";
import { storableText } from "./response-excerpt";
import { RETRY_DELAYS_S, retryDelayMs } from "./retry-schedule";
import type { AttemptResult } from "./send-webhook";

export type DeliveryOutcome = "succeeded" | "retry_scheduled" | "failed" | "skipped" | "in_flight";

/** A finished attempt of a delivery: its number and what happened. */
export interface FinishedAttempt {
  deliveryId: string;
  number: number;
  result: AttemptResult;
}

/** Appends attempt rows, in one statement however many; texts are made storable (response-excerpt.ts). */
export async function insertAttempts(db: Db, attempts: FinishedAttempt[]): Promise<void> {
  if (attempts.length === 0) return;
  await query(
    db,
    `insert into webhook_attempts
       (delivery_id, attempt, started_at, duration_ms, status_code, error, response_body, success)
     select *
     from unnest($1::text[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::bool[])`,
    [
      attempts.map((a) => a.deliveryId),
      attempts.map((a) => a.number),
      attempts.map((a) => a.result.startedAt),
      attempts.map((a) => a.result.durationMs),
      attempts.map((a) => a.result.statusCode),
      attempts.map((a) => (a.result.error === null ? null : storableText(a.result.error))),
      attempts.map((a) => (a.result.responseBody === null ? null : storableText(a.result.responseBody))),
      attempts.map((a) => a.result.success),
    ],
  );
  for (const a of attempts) countSignal("webhook_attempts", { outcome: attemptOutcome(a.result) });
}

/** An attempt's outcome as the metrics name it: delivered, refused by the receiver, or not answered. */
const attemptOutcome = (result: AttemptResult) =>
  result.success ? "delivered" : result.statusCode !== null ? "http_error" : "network_error";

const DELIVERED = DELIVERY_LIFECYCLE.bulk("delivered");
const GAVE_UP = DELIVERY_LIFECYCLE.bulk("gave_up");

/** Settles deliveries as delivered; one settled already (by a replay, say) keeps its first delivery time. */
export async function markDelivered(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await query(
    db,
    `update webhook_deliveries set status = $2, delivered_at = now(), next_attempt_at = null, updated_at = now()
     where id = any($1) and status = any($3)`,
    [ids, DELIVERED.to, DELIVERED.from],
  );
}

/** Ends deliveries with no further attempt (one a replay delivered meanwhile stays delivered). */
export async function markFailed(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await query(
    db,
    "update webhook_deliveries set status = $2, next_attempt_at = null, updated_at = now() " +
      "where id = any($1) and status = any($3)",
    [ids, GAVE_UP.to, GAVE_UP.from],
  );
}

type RecordedAttempt = { id: string; outcome: DeliveryOutcome; attempt: AttemptResult };

/** Records an attempt; if that fails (its response excerpt, say), records it once more without the excerpt. */
export function withExcerptFallback<T>(record: (result: AttemptResult) => Promise<T>, result: AttemptResult) {
  return record(result).catch(() => record({ ...result, responseBody: null }));
}

/**
 * Records finished attempts of claimed deliveries, each in a transaction of its own, so one that cannot be
 * recorded never undoes another's result (which would send that event again). One that fails even without
 * its response excerpt is logged and left to its lease: the stalled sweep tries the delivery again.
 */
export async function recordAttempts(db: Db, attempts: FinishedAttempt[]): Promise<RecordedAttempt[]> {
  const recorded: RecordedAttempt[] = [];
  for (const attempt of attempts) {
    const outcome = await withExcerptFallback(
      (result) => recordAttempt(db, { ...attempt, result }),
      attempt.result,
    ).catch((err: unknown) => {
      log.error("recording a webhook attempt failed", { delivery_id: attempt.deliveryId, error: String(err) });
      return null;
    });
    if (outcome) recorded.push(outcome);
  }
  return recorded;
}

/**
 * Records one finished attempt and settles or reschedules its delivery: a success is delivered, a failure
 * with retries left gets its next attempt (a job at now + the schedule's delay, also written to
 * next_attempt_at for the stalled sweep), the last failure ends the delivery.
 */
function recordAttempt(db: Db, { deliveryId, number, result: attempt }: FinishedAttempt): Promise<RecordedAttempt> {
  return inTransaction(db, async (tx) => {
    await insertAttempts(tx, [{ deliveryId, number, result: attempt }]);
    if (attempt.success) {
      await markDelivered(tx, [deliveryId]);
      return { id: deliveryId, outcome: "succeeded", attempt };
    }
    if (number <= RETRY_DELAYS_S.length) {
      const runAt = new Date(Date.now() + retryDelayMs(number));
      await query(tx, "update webhook_deliveries set next_attempt_at = $2, updated_at = now() where id = $1", [
        deliveryId,
        runAt,
      ]);
      await enqueueJob(tx, "deliver_webhook", { deliveryId }, { runAt });
      return { id: deliveryId, outcome: "retry_scheduled", attempt };
    }
    await markFailed(tx, [deliveryId]);
    return { id: deliveryId, outcome: "failed", attempt };
  });
}
