import { invalidRequest } from "@/lib/kernel/domain-error";
import { newId } from "@/lib/kernel/random";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { getWebhookEndpoint } from "./manage-webhook-endpoint";
import { resendEvent } from "./resend-event";
import type { AttemptResult } from "./send-webhook";
import { serializeWebhookEndpoint } from "./webhook-endpoint-row";

/**
 * A test event of our own, beside the payment and payout events (docs/DASHBOARD.md#webhooks): a
 * `webhook_endpoint.test` event whose `data.object` is the endpoint, sent
 * only to that endpoint whatever its filter, signed like every event.
 */
export const TEST_EVENT_TYPE = "webhook_endpoint.test";

/**
 * Records a test event (in the events table, so the delivery log and Resend treat it like any other) and
 * sends it to the endpoint now. `alsoInTransaction` runs in the event's transaction (the audit row).
 */
export async function sendTestEvent(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  endpointId: string,
  opts: { alsoInTransaction?: (tx: Db) => Promise<void> } = {},
): Promise<{ eventId: string; result: AttemptResult }> {
  const eventId = await inTransaction(db, async (tx) => {
    const endpoint = await getWebhookEndpoint(tx, owner, endpointId);
    if (!endpoint.active) throw invalidRequest("This endpoint is disabled; enable it to send to it.", "id");
    const id = newId("evt_");
    const createdAt = new Date();
    const body = JSON.stringify({
      id,
      object: "event",
      type: TEST_EVENT_TYPE,
      livemode: owner.mode === "live",
      created: Math.floor(createdAt.getTime() / 1000),
      data: { object: serializeWebhookEndpoint(endpoint) },
    });
    await query(
      tx,
      "insert into events (id, merchant_id, mode, type, object_id, body, created_at) " +
        "values ($1, $2, $3, $4, $5, $6, $7)",
      [id, owner.merchantId, owner.mode, TEST_EVENT_TYPE, endpoint.id, body, createdAt],
    );
    await opts.alsoInTransaction?.(tx);
    return id;
  });
  return { eventId, result: await resendEvent(db, owner, { endpointId, eventId }) };
}
