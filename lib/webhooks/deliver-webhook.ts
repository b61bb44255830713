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

interface DeliveryRow {
  status: string;
  attempt_count: number;
  mode: Mode;
  body: string;
  url: string;
  active: boolean;
  encrypted_secret: string;
}

export type DeliveryOutcome = "succeeded" | "retry_scheduled" | "failed" | "skipped";

/**
 * One attempt of a pending delivery, then its bookkeeping in one transaction: the attempt row, and either
 * success, the next attempt (a job at now + the schedule's delay), or final failure. Run again after a
 * crash between sending and recording, it simply sends again: delivery is at-least-once, and a delivery is
 * never marked succeeded without a 2xx.
 */
export async function deliverWebhook(db: Db, deliveryId: string, opts: { resolve?: Resolver } = {}): Promise<{ outcome: DeliveryOutcome; attempt?: AttemptResult }> {
  const [d] = await query<DeliveryRow>(
    db,
    `select d.status, d.attempt_count, d.mode, e.body, w.url, (w.active and w.deleted_at is null) as active, w.encrypted_secret
     from webhook_deliveries d join events e on e.id = d.event_id join webhook_endpoints w on w.id = d.endpoint_id
     where d.id = $1`,
    [deliveryId],
  );
  if (!d || d.status !== "pending") return { outcome: "skipped" };
  if (!d.active) {
    await query(db, "update webhook_deliveries set status = 'failed', updated_at = now() where id = $1 and status = 'pending'", [deliveryId]);
    return { outcome: "skipped" };
  }

  const attemptNumber = d.attempt_count + 1;
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
      await query(tx, "update webhook_deliveries set status = 'succeeded', attempt_count = $2, delivered_at = now(), next_attempt_at = null, updated_at = now() where id = $1", [deliveryId, attemptNumber]);
      return "succeeded" as const;
    }
    if (attemptNumber <= RETRY_DELAYS_S.length) {
      const runAt = new Date(Date.now() + retryDelayMs(attemptNumber));
      await query(tx, "update webhook_deliveries set attempt_count = $2, next_attempt_at = $3, updated_at = now() where id = $1", [deliveryId, attemptNumber, runAt]);
      await enqueueJob(tx, "deliver_webhook", { deliveryId }, { runAt });
      return "retry_scheduled" as const;
    }
    await query(tx, "update webhook_deliveries set status = 'failed', attempt_count = $2, next_attempt_at = null, updated_at = now() where id = $1", [deliveryId, attemptNumber]);
    return "failed" as const;
  });
  return { outcome, attempt };
}
