import { inTransaction, type Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import type { Mode } from "@/lib/keys/api-key-format";
import { decryptSecret } from "@/lib/secrets/encryption";
import { masterKey } from "@/lib/secrets/master-key";
import { privateUrlsAllowed, type Resolver } from "./check-webhook-url";
import { WEBHOOK_SECRET_PURPOSE } from "./create-webhook-endpoint";
import { sendWebhook, type AttemptResult } from "./send-webhook";

/** Spec 6.4: up to 5 retries after 5, 10, 20, 40 and 80 s (6 attempts at most). */
export const RETRY_DELAYS_S = [5, 10, 20, 40, 80] as const;

/** WEBHOOK_RETRY_SCALE shrinks the schedule for test suites (e.g. 0.01); production leaves it at 1. */
export function retryDelayMs(attempt: number, env: NodeJS.ProcessEnv = process.env): number {
  const scale = Number(env.WEBHOOK_RETRY_SCALE || 1);
  return Math.round(RETRY_DELAYS_S[attempt - 1]! * 1000 * (Number.isFinite(scale) && scale > 0 ? scale : 1));
}

/** How long a claimed attempt may take before the sweeper treats its worker as dead. */
export const ATTEMPT_LEASE_MS = 2 * 60_000;

interface ClaimedDelivery {
  attempt_count: number;
  mode: Mode;
  body: string;
  url: string;
  active: boolean;
  encrypted_secret: string;
}

export type DeliveryOutcome = "succeeded" | "retry_scheduled" | "failed" | "skipped";

/**
 * One attempt of a pending delivery. The attempt is first claimed with an atomic update (attempt number
 * + a lease in next_attempt_at), so a duplicate job for the same delivery finds nothing due and skips;
 * then it is sent; then recorded in one transaction: the attempt row, and either success, the next attempt
 * (a job at now + the schedule's delay) or final failure. A worker killed between claim and record leaves
 * an expired lease that sweepStalledDeliveries re-enqueues: delivery is at-least-once, nothing is lost, and
 * a delivery is never marked succeeded without a 2xx.
 */
export async function deliverWebhook(db: Db, deliveryId: string, opts: { resolve?: Resolver } = {}): Promise<{ outcome: DeliveryOutcome; attempt?: AttemptResult }> {
  const [d] = await query<ClaimedDelivery>(
    db,
    `with claimed as (
       update webhook_deliveries set attempt_count = attempt_count + 1, next_attempt_at = now() + make_interval(secs => $2::float8 / 1000), updated_at = now()
       where id = $1 and status = 'pending' and (next_attempt_at is null or next_attempt_at <= now())
       returning event_id, endpoint_id, attempt_count, mode)
     select c.attempt_count, c.mode, e.body, w.url, (w.active and w.deleted_at is null) as active, w.encrypted_secret
     from claimed c join events e on e.id = c.event_id join webhook_endpoints w on w.id = c.endpoint_id`,
    [deliveryId, ATTEMPT_LEASE_MS],
  );
  if (!d) return { outcome: "skipped" };
  if (!d.active) {
    await query(db, "update webhook_deliveries set status = 'failed', next_attempt_at = null, updated_at = now() where id = $1", [deliveryId]);
    return { outcome: "skipped" };
  }

  const attemptNumber = d.attempt_count;
  const secret = decryptSecret(masterKey(), d.encrypted_secret, WEBHOOK_SECRET_PURPOSE).toString("utf8");
  const attempt = await sendWebhook({ url: d.url, body: d.body, secret, allowPrivate: privateUrlsAllowed(d.mode), resolve: opts.resolve });

  const outcome = await inTransaction(db, async (tx) => {
    await query(
      tx,
      `insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, response_body, success)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [deliveryId, attemptNumber, attempt.startedAt, attempt.durationMs, attempt.statusCode, attempt.error, attempt.responseBody, attempt.success],
    );
    if (attempt.success) {
      await query(tx, "update webhook_deliveries set status = 'succeeded', delivered_at = now(), next_attempt_at = null, updated_at = now() where id = $1", [deliveryId]);
      return "succeeded" as const;
    }
    if (attemptNumber <= RETRY_DELAYS_S.length) {
      const runAt = new Date(Date.now() + retryDelayMs(attemptNumber));
      await query(tx, "update webhook_deliveries set next_attempt_at = $2, updated_at = now() where id = $1", [deliveryId, runAt]);
      await enqueueJob(tx, "deliver_webhook", { deliveryId }, { runAt });
      return "retry_scheduled" as const;
    }
    await query(tx, "update webhook_deliveries set status = 'failed', next_attempt_at = null, updated_at = now() where id = $1", [deliveryId]);
    return "failed" as const;
  });
  return { outcome, attempt };
}

/**
 * Re-enqueues pending deliveries whose attempt is overdue (its lease or scheduled time passed before
 * `overdueBefore`): their job was held by a worker that died. Bounded per run; the per-delivery job key
 * keeps one queued job per delivery however often the sweep runs.
 */
export async function sweepStalledDeliveries(db: Db, overdueBefore: Date, batch = 500): Promise<number> {
  const stalled = await query<{ id: string }>(
    db,
    `select id from webhook_deliveries where status = 'pending' and coalesce(next_attempt_at, created_at) < $1 order by coalesce(next_attempt_at, created_at) limit $2`,
    [overdueBefore, batch],
  );
  for (const { id } of stalled) {
    // Make it due now, so the re-enqueued job can claim it.
    await query(db, "update webhook_deliveries set next_attempt_at = now() where id = $1 and status = 'pending'", [id]);
    await enqueueJob(db, "deliver_webhook", { deliveryId: id }, { jobKey: `redeliver:${id}` });
  }
  return stalled.length;
}
