import { type AppConfig, config } from "@/lib/config/env";
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

/** How long a claimed attempt may take before the sweeper treats its worker as dead. */
export const ATTEMPT_LEASE_MS = 2 * 60_000;

/** WEBHOOK_RETRY_SCALE shrinks the schedule for test suites (e.g. 0.01); production leaves it at 1. */
export function retryDelayMs(attempt: number, cfg: AppConfig = config()): number {
  return Math.round(RETRY_DELAYS_S[attempt - 1]! * 1000 * cfg.webhookRetryScale);
}

/**
 * A job waits this long for its attempts; slower ones finish (and are recorded) in the background, so a
 * slow or dead endpoint (10 s timeouts) never holds the worker's job slots.
 */
const JOB_WAIT_MS = 1_000;
/** At most this many attempts to one endpoint in flight per worker process; more are deferred. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 50;
const DEFER_MS = 2_000;
const inFlight = new Map<string, number>();

interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  attempt_count: number;
  mode: Mode;
  body: string;
  url: string;
  active: boolean;
  encrypted_secret: string;
}

export type DeliveryOutcome = "succeeded" | "retry_scheduled" | "failed" | "skipped" | "in_flight";
type Sent = { d: ClaimedDelivery; attempt: AttemptResult };

/**
 * One attempt of every due pending delivery of an event (first attempts, fanned out together) or of one
 * delivery (a retry). Attempts are first claimed with one atomic update (attempt number + a lease in
 * next_attempt_at), so a duplicate job finds nothing due; then sent in parallel; then recorded in one
 * transaction per batch: attempt rows, and per delivery success, the next attempt (a job at now + the
 * schedule's delay) or final failure. Attempts still running after a second are recorded when they end,
 * outside the job. A worker killed between claim and record leaves expired leases that
 * sweepStalledDeliveries re-enqueues: at-least-once, nothing lost, never succeeded without a 2xx.
 */
export async function deliverWebhooks(
  db: Db,
  target: { eventId: string } | { deliveryId: string },
  opts: { resolve?: Resolver; waitMs?: number } = {},
): Promise<{ id: string; outcome: DeliveryOutcome; attempt?: AttemptResult }[]> {
  const [column, value] = "eventId" in target ? ["event_id", target.eventId] : ["id", target.deliveryId];
  const claimed = await query<ClaimedDelivery>(
    db,
    `with claimed as (
       update webhook_deliveries set attempt_count = attempt_count + 1, next_attempt_at = now() + make_interval(secs => $2::float8 / 1000), updated_at = now()
       where ${column} = $1 and status = 'pending' and (next_attempt_at is null or next_attempt_at <= now())
       returning id, event_id, endpoint_id, attempt_count, mode)
     select c.id, c.endpoint_id, c.attempt_count, c.mode, e.body, w.url, (w.active and w.deleted_at is null) as active, w.encrypted_secret
     from claimed c join events e on e.id = c.event_id join webhook_endpoints w on w.id = c.endpoint_id`,
    [value, ATTEMPT_LEASE_MS],
  );
  if (claimed.length === 0) return [];
  const gone = claimed.filter((d) => !d.active).map((d) => d.id);
  if (gone.length)
    await query(
      db,
      "update webhook_deliveries set status = 'failed', next_attempt_at = null, updated_at = now() where id = any($1)",
      [gone],
    );
  const live: ClaimedDelivery[] = [];
  const deferred: string[] = [];
  for (const d of claimed.filter((c) => c.active)) {
    const busy = inFlight.get(d.endpoint_id) ?? 0;
    if (busy >= MAX_IN_FLIGHT_PER_ENDPOINT) deferred.push(d.id);
    else {
      inFlight.set(d.endpoint_id, busy + 1);
      live.push(d);
    }
  }
  if (deferred.length) await deferDeliveries(db, deferred);

  const key = masterKey();
  const finished: Sent[] = [];
  const sends = live.map((d) =>
    sendWebhook({
      url: d.url,
      body: d.body,
      secret: decryptSecret(key, d.encrypted_secret, WEBHOOK_SECRET_PURPOSE).toString("utf8"),
      allowPrivate: privateUrlsAllowed(d.mode),
      resolve: opts.resolve,
    })
      .then((attempt) => ({ d, attempt }))
      .finally(() => {
        const left = (inFlight.get(d.endpoint_id) ?? 1) - 1;
        if (left > 0) inFlight.set(d.endpoint_id, left);
        else inFlight.delete(d.endpoint_id);
      }),
  );
  const recordedInJob = new Set<string>();
  for (const send of sends) void send.then((sent) => finished.push(sent));
  await Promise.race([Promise.all(sends), new Promise((r) => setTimeout(r, opts.waitMs ?? JOB_WAIT_MS))]);
  const batch = finished.splice(0);
  for (const sent of batch) recordedInJob.add(sent.d.id);
  const outcomes = batch.length ? await recordAttempts(db, batch) : [];
  // The rest are still waiting on slow endpoints: record each when it ends, without holding the job.
  for (const send of sends) {
    void send.then(async (sent) => {
      if (recordedInJob.has(sent.d.id)) return;
      await recordAttempts(db, [sent]).catch((err: unknown) =>
        console.error(`[webhooks] recording ${sent.d.id} failed: ${String(err)}`),
      );
    });
  }
  const running = live
    .filter((d) => !recordedInJob.has(d.id))
    .map((d) => ({ id: d.id, outcome: "in_flight" as const }));
  return [...outcomes, ...running, ...[...gone, ...deferred].map((id) => ({ id, outcome: "skipped" as const }))];
}

/** Records finished attempts in one transaction and settles or reschedules each delivery. */
async function recordAttempts(
  db: Db,
  sent: Sent[],
): Promise<{ id: string; outcome: DeliveryOutcome; attempt: AttemptResult }[]> {
  return inTransaction(db, async (tx) => {
    await query(
      tx,
      `insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, response_body, success)
       select * from unnest($1::text[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::bool[])`,
      [
        sent.map((s) => s.d.id),
        sent.map((s) => s.d.attempt_count),
        sent.map((s) => s.attempt.startedAt),
        sent.map((s) => s.attempt.durationMs),
        sent.map((s) => s.attempt.statusCode),
        sent.map((s) => s.attempt.error),
        sent.map((s) => s.attempt.responseBody),
        sent.map((s) => s.attempt.success),
      ],
    );
    const succeeded = sent.filter((s) => s.attempt.success).map((s) => s.d.id);
    if (succeeded.length)
      await query(
        tx,
        "update webhook_deliveries set status = 'succeeded', delivered_at = now(), next_attempt_at = null, updated_at = now() where id = any($1)",
        [succeeded],
      );
    const result: { id: string; outcome: DeliveryOutcome; attempt: AttemptResult }[] = [];
    for (const { d, attempt } of sent) {
      if (attempt.success) {
        result.push({ id: d.id, outcome: "succeeded", attempt });
      } else if (d.attempt_count <= RETRY_DELAYS_S.length) {
        const runAt = new Date(Date.now() + retryDelayMs(d.attempt_count));
        await query(tx, "update webhook_deliveries set next_attempt_at = $2, updated_at = now() where id = $1", [
          d.id,
          runAt,
        ]);
        await enqueueJob(tx, "deliver_webhook", { deliveryId: d.id }, { runAt });
        result.push({ id: d.id, outcome: "retry_scheduled", attempt });
      } else {
        await query(
          tx,
          "update webhook_deliveries set status = 'failed', next_attempt_at = null, updated_at = now() where id = $1",
          [d.id],
        );
        result.push({ id: d.id, outcome: "failed", attempt });
      }
    }
    return result;
  });
}

/** Gives claimed attempts back (their number is not used) and tries them again shortly. */
async function deferDeliveries(db: Db, ids: string[]): Promise<void> {
  const runAt = new Date(Date.now() + DEFER_MS);
  await inTransaction(db, async (tx) => {
    await query(
      tx,
      "update webhook_deliveries set attempt_count = attempt_count - 1, next_attempt_at = $2, updated_at = now() where id = any($1)",
      [ids, runAt],
    );
    for (const id of ids) await enqueueJob(tx, "deliver_webhook", { deliveryId: id }, { runAt });
  });
}

/**
 * Re-enqueues pending deliveries whose attempt is overdue (its lease or scheduled time passed before
 * `overdueBefore`): their job was held by a worker that died. Bounded per run; the per-delivery job key
 * keeps one queued job per delivery however often the sweep runs.
 */
export async function sweepStalledDeliveries(db: Db, overdueBefore: Date, batch = 500): Promise<number> {
  const stalled = await query<{ id: string }>(
    db,
    `update webhook_deliveries set next_attempt_at = now() where id in (
       select id from webhook_deliveries where status = 'pending' and coalesce(next_attempt_at, created_at) < $1
       order by coalesce(next_attempt_at, created_at) limit $2)
     returning id`,
    [overdueBefore, batch],
  );
  for (const { id } of stalled)
    await enqueueJob(db, "deliver_webhook", { deliveryId: id }, { jobKey: `redeliver:${id}` });
  return stalled.length;
}
