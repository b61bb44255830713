import type { Db } from "@/lib/platform/db/client";
import { sleep } from "@/lib/kernel/sleep";
import type { Resolver } from "./check-webhook-url";
import { type ClaimedDelivery, claimDeliveries, deferDeliveries } from "./claim-deliveries";
import { type DeliveryOutcome, type FinishedAttempt, markFailed, recordAttempts } from "./record-attempts";
import { sendToEndpoint } from "./send-to-endpoint";
import type { AttemptResult } from "./send-webhook";

/**
 * A job waits this long for its attempts; slower ones finish (and are recorded) in the background, so a
 * slow or dead endpoint (10 s timeouts) never holds the worker's job slots.
 */
const JOB_WAIT_MS = 1_000;
/** At most this many attempts to one endpoint in flight per worker process; more are deferred. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 50;
const inFlight = new Map<string, number>();

/**
 * One attempt of every due pending delivery of an event (first attempts, fanned out together) or of one
 * delivery (a retry): claimed (claim-deliveries.ts), sent in parallel (send-to-endpoint.ts), then recorded
 * each in a transaction of its own (record-attempts.ts). Attempts still running after a second are recorded
 * when they end, outside the job. A worker killed between claim and record leaves expired leases that
 * the stalled sweep (redeliver-stalled.ts) re-enqueues: at-least-once, nothing lost, never succeeded
 * without a 2xx.
 */
export async function deliverWebhooks(
  db: Db,
  target: { eventId: string } | { deliveryId: string },
  opts: { resolve?: Resolver; waitMs?: number } = {},
): Promise<{ id: string; outcome: DeliveryOutcome; attempt?: AttemptResult }[]> {
  const claimed = await claimDeliveries(db, target);
  if (claimed.length === 0) return [];
  const gone = claimed.filter((d) => !d.active).map((d) => d.id);
  await markFailed(db, gone);
  const { live, deferred } = takeSendSlots(claimed.filter((d) => d.active));
  if (deferred.length) await deferDeliveries(db, deferred);

  const finished: FinishedAttempt[] = [];
  const sends = live.map((d) =>
    sendToEndpoint({ url: d.url, encryptedSecret: d.encrypted_secret, mode: d.mode }, d.body, { resolve: opts.resolve })
      .then((result): FinishedAttempt => ({ deliveryId: d.id, number: d.attempt_count, result }))
      .finally(() => releaseSendSlot(d.endpoint_id)),
  );
  const recordedInJob = new Set<string>();
  for (const send of sends) void send.then((sent) => finished.push(sent));
  await Promise.race([Promise.all(sends), sleep(opts.waitMs ?? JOB_WAIT_MS)]);
  const batch = finished.splice(0);
  for (const sent of batch) recordedInJob.add(sent.deliveryId);
  const outcomes = batch.length ? await recordAttempts(db, batch) : [];
  // The rest are still waiting on slow endpoints: record each when it ends, without holding the job.
  for (const send of sends) {
    // recordAttempts logs (and never throws) what it cannot record.
    void send.then((sent) => (recordedInJob.has(sent.deliveryId) ? undefined : recordAttempts(db, [sent])));
  }
  const running = live
    .filter((d) => !recordedInJob.has(d.id))
    .map((d) => ({ id: d.id, outcome: "in_flight" as const }));
  return [...outcomes, ...running, ...[...gone, ...deferred].map((id) => ({ id, outcome: "skipped" as const }))];
}

/** Takes one in-flight slot per delivery on its endpoint; deliveries to endpoints at the cap are deferred. */
function takeSendSlots(deliveries: ClaimedDelivery[]): { live: ClaimedDelivery[]; deferred: string[] } {
  const live: ClaimedDelivery[] = [];
  const deferred: string[] = [];
  for (const d of deliveries) {
    const busy = inFlight.get(d.endpoint_id) ?? 0;
    if (busy >= MAX_IN_FLIGHT_PER_ENDPOINT) deferred.push(d.id);
    else {
      inFlight.set(d.endpoint_id, busy + 1);
      live.push(d);
    }
  }
  return { live, deferred };
}

function releaseSendSlot(endpointId: string): void {
  const left = (inFlight.get(endpointId) ?? 1) - 1;
  if (left > 0) inFlight.set(endpointId, left);
  else inFlight.delete(endpointId);
}
