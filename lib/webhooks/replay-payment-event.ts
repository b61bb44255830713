import { invalidRequest } from "@/lib/api/errors";
import { newId } from "@/lib/crypto/random";
import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { type MatchingEndpoint, matchingEndpoints } from "@/lib/events/fan-out-event";
import type { Mode } from "@/lib/modes/mode";
import { getPayment } from "@/lib/payments/get-payment";
import { type FinishedAttempt, insertAttempts, markDelivered } from "./record-attempts";
import { sendToEndpoint } from "./send-to-endpoint";
import type { AttemptResult } from "./send-webhook";

export interface ReplayResult {
  event: string;
  dispatched: number;
  deliveries: { endpointId: string; url: string; success: boolean; statusCode: number }[];
}

/**
 * Replay (POST /v1/payments/:id/replay): re-sends the event of the payment's current status, synchronously,
 * to every active endpoint whose filter matches, and answers with the outcome of each. The event keeps its
 * original id and body (as Stripe's resend does), so receivers deduplicate it like any retry. Each send is
 * recorded as an attempt of that event's delivery; a successful one also settles a delivery still being
 * retried. `statusCode` is 0 when no HTTP response came back.
 */
export async function replayPaymentEvent(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  paymentId: string,
): Promise<ReplayResult> {
  const payment = await getPayment(db, owner, paymentId);
  const type = `payment.${payment.status}`;
  const [event] = await query<{ id: string; body: string }>(
    db,
    "select id, body from events where object_id = $1 and type = $2 order by created_at desc, id desc limit 1",
    [payment.id, type],
  );
  if (!event) throw invalidRequest(`Payment ${payment.id} has no ${type} event to replay.`, "id");
  const endpoints = await matchingEndpoints(db, owner, type);
  const results = await Promise.all(
    endpoints.map((e) =>
      sendToEndpoint({ url: e.url, encryptedSecret: e.encrypted_secret, mode: owner.mode }, event.body),
    ),
  );
  await recordReplays(db, owner, event.id, endpoints, results);
  return {
    event: type,
    dispatched: endpoints.length,
    deliveries: endpoints.map((e, i) => ({
      endpointId: e.id,
      url: e.url,
      success: results[i]!.success,
      statusCode: results[i]!.statusCode ?? 0,
    })),
  };
}

/** Records each endpoint's replay as the next attempt of the event's delivery to it. */
async function recordReplays(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  eventId: string,
  endpoints: MatchingEndpoint[],
  results: AttemptResult[],
): Promise<void> {
  if (endpoints.length === 0) return;
  // An endpoint added after the event has no delivery yet: this manual send becomes a settled one (no
  // automatic retries follow a replay).
  for (const [i, endpoint] of endpoints.entries())
    await query(
      db,
      "insert into webhook_deliveries (id, event_id, endpoint_id, merchant_id, mode, status, attempt_count) values ($1, $2, $3, $4, $5, $6, 0) on conflict (event_id, endpoint_id) do nothing",
      [newId("whd_"), eventId, endpoint.id, owner.merchantId, owner.mode, results[i]!.success ? "succeeded" : "failed"],
    );
  const deliveries = await query<{ id: string; endpoint_id: string; last_attempt: number }>(
    db,
    `select d.id, d.endpoint_id, coalesce((select max(attempt) from webhook_attempts a where a.delivery_id = d.id), 0)::int as last_attempt
     from webhook_deliveries d where d.event_id = $1 and d.endpoint_id = any($2)`,
    [eventId, endpoints.map((e) => e.id)],
  );
  const byEndpoint = new Map(deliveries.map((d) => [d.endpoint_id, d]));
  const attempts: FinishedAttempt[] = endpoints.map((e, i) => {
    const delivery = byEndpoint.get(e.id)!;
    return { deliveryId: delivery.id, number: delivery.last_attempt + 1, result: results[i]! };
  });
  await insertAttempts(db, attempts);
  const delivered = attempts.filter((a) => a.result.success).map((a) => a.deliveryId);
  await markDelivered(db, delivered);
}
