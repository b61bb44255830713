import { ApiError, notFound } from "@/lib/api/errors";
import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { Mode } from "@/lib/modes/mode";
import { recordReplayAttempt } from "./record-replay-attempt";
import { sendToEndpoint } from "./send-to-endpoint";
import type { AttemptResult } from "./send-webhook";

type Owner = { merchantId: string; mode: Mode };

/**
 * Sends one delivery's event again to its endpoint, now (the dashboard's Resend): the same frozen body and
 * signing as a replay (send-to-endpoint.ts), recorded as the delivery's next attempt (record-replay-attempt.ts),
 * so the receiver deduplicates it like any retry. Another merchant's or mode's delivery → not found; a
 * deleted or disabled endpoint is not sent to. No connection is held while the receiver answers.
 */
export async function resendDelivery(
  db: Db,
  owner: Owner,
  deliveryId: string,
  alsoInTransaction?: (tx: Db, result: AttemptResult & { eventId: string; endpointId: string }) => Promise<void>,
): Promise<AttemptResult> {
  const [row] = await query<{
    event_id: string;
    endpoint_id: string;
    body: string;
    url: string;
    encrypted_secret: string;
    usable: boolean;
  }>(
    db,
    `select d.event_id, d.endpoint_id, e.body, w.url, w.encrypted_secret, (w.active and w.deleted_at is null) as usable
     from webhook_deliveries d join events e on e.id = d.event_id join webhook_endpoints w on w.id = d.endpoint_id
     where d.id = $1 and d.merchant_id = $2 and d.mode = $3`,
    [deliveryId, owner.merchantId, owner.mode],
  );
  if (!row) throw notFound("webhook delivery", deliveryId);
  if (!row.usable)
    throw new ApiError("invalid_request_error", "This endpoint is disabled or deleted; enable it to resend.", {
      param: "id",
    });
  const result = await sendToEndpoint(
    { url: row.url, encryptedSecret: row.encrypted_secret, mode: owner.mode },
    row.body,
  );
  await recordReplayAttempt(db, owner, row.event_id, row.endpoint_id, result, (tx) =>
    alsoInTransaction
      ? alsoInTransaction(tx, { ...result, eventId: row.event_id, endpointId: row.endpoint_id })
      : Promise.resolve(),
  );
  return result;
}
