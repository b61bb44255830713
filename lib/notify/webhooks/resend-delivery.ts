import { notFound } from "@/lib/kernel/domain-error";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { resendEvent } from "./resend-event";
import type { AttemptResult } from "./send-webhook";

type Owner = { merchantId: string; mode: Mode };

/**
 * Resend by delivery (the payment and event pages list deliveries): that delivery's event sent again to its
 * endpoint, as `resendEvent` does. Another merchant's or mode's delivery → not found.
 */
export async function resendDelivery(
  db: Db,
  owner: Owner,
  deliveryId: string,
  alsoInTransaction?: (tx: Db, result: AttemptResult & { eventId: string; endpointId: string }) => Promise<void>,
): Promise<AttemptResult> {
  const [row] = await query<{ event_id: string; endpoint_id: string }>(
    db,
    "select event_id, endpoint_id from webhook_deliveries where id = $1 and merchant_id = $2 and mode = $3",
    [deliveryId, owner.merchantId, owner.mode],
  );
  if (!row) throw notFound("webhook delivery", deliveryId);
  const ids = { eventId: row.event_id, endpointId: row.endpoint_id };
  return resendEvent(db, owner, ids, {
    alsoInTransaction: alsoInTransaction && ((tx, result) => alsoInTransaction(tx, { ...result, ...ids })),
  });
}
