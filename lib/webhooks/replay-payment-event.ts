import { invalidRequest } from "@/lib/api/errors";
import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { Mode } from "@/lib/keys/api-key-format";
import { getPayment } from "@/lib/payments/get-payment";
import { decryptSecret } from "@/lib/secrets/encryption";
import { masterKey } from "@/lib/secrets/master-key";
import { privateUrlsAllowed } from "./check-webhook-url";
import { WEBHOOK_SECRET_PURPOSE } from "./create-webhook-endpoint";
import { newId } from "@/lib/crypto/random";
import { matchingEndpoints } from "@/lib/events/fan-out-event";
import { sendWebhook } from "./send-webhook";

export interface ReplayResult {
  event: string;
  dispatched: number;
  deliveries: { endpointId: string; url: string; success: boolean; statusCode: number }[];
}

/**
 * Spec 4.1 replay: re-sends the event of the payment's current status, synchronously, to every active
 * endpoint whose filter matches, and answers with the outcome of each. The event keeps its original id
 * and body (as Stripe's resend does), so receivers deduplicate it like any retry. Each send is recorded
 * as an attempt of that event's delivery; a successful one also settles a delivery still being retried.
 * `statusCode` is 0 when no HTTP response came back.
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
  const key = masterKey();
  const results = await Promise.all(
    endpoints.map((e) =>
      sendWebhook({
        url: e.url,
        body: event.body,
        secret: decryptSecret(key, e.encrypted_secret, WEBHOOK_SECRET_PURPOSE).toString("utf8"),
        allowPrivate: privateUrlsAllowed(owner.mode),
      }),
    ),
  );
  for (const [i, endpoint] of endpoints.entries()) {
    const r = results[i]!;
    // An endpoint added after the event has no delivery yet: record this manual send as a settled one
    // (no automatic retries follow a replay).
    await query(
      db,
      "insert into webhook_deliveries (id, event_id, endpoint_id, merchant_id, mode, status, attempt_count) values ($1, $2, $3, $4, $5, $6, 0) on conflict (event_id, endpoint_id) do nothing",
      [newId("whd_"), event.id, endpoint.id, owner.merchantId, owner.mode, r.success ? "succeeded" : "failed"],
    );
    await query(
      db,
      `insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, response_body, success)
       select d.id, coalesce((select max(attempt) from webhook_attempts where delivery_id = d.id), 0) + 1, $3, $4, $5, $6, $7, $8
       from webhook_deliveries d where d.event_id = $1 and d.endpoint_id = $2`,
      [event.id, endpoint.id, r.startedAt, r.durationMs, r.statusCode, r.error, r.responseBody, r.success],
    );
    if (r.success) {
      await query(
        db,
        "update webhook_deliveries set status = 'succeeded', delivered_at = now(), next_attempt_at = null, updated_at = now() where event_id = $1 and endpoint_id = $2 and status <> 'succeeded'",
        [event.id, endpoint.id],
      );
    }
  }
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
