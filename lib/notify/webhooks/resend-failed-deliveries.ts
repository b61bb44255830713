import { invalidRequest, notFound } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { DELIVERY_LIFECYCLE } from "./delivery-lifecycle";

/** At most this many deliveries are queued per call; `has_more` says to call again. */
export const RESEND_FAILED_LIMIT = 500;
const RESENT = DELIVERY_LIFECYCLE.bulk("resent");

export interface ResendFailedResult {
  object: "webhook_resend";
  endpoint: string;
  queued: number;
  has_more: boolean;
}

/**
 * Queues again the endpoint's deliveries that gave up (`failed`), of events created at or after `since`
 * (unix seconds), oldest first, in the caller's transaction: each goes back to `pending` and gets one more
 * attempt now (its number continues the delivery's; a failure ends it again, with no new retry schedule).
 * A call with the same Idempotency-Key replays its answer; a second call finds nothing left to queue.
 */
export async function resendFailedDeliveries(
  tx: Db,
  owner: { merchantId: string; mode: Mode },
  endpointId: string,
  since: number,
): Promise<ResendFailedResult> {
  const [endpoint] = await query<{ active: boolean }>(
    tx,
    "select active from webhook_endpoints where id = $1 " +
      "and merchant_id = $2 and mode = $3 and deleted_at is null for update",
    [endpointId, owner.merchantId, owner.mode],
  );
  if (!endpoint) throw notFound("webhook endpoint", endpointId);
  if (!endpoint.active) throw invalidRequest("This endpoint is disabled: enable it before resending.", "id");
  const due = await query<{ id: string }>(
    tx,
    `select d.id from webhook_deliveries d join events e on e.id = d.event_id
     where d.endpoint_id = $1 and d.status = any($2) and e.created_at >= to_timestamp($3)
     order by e.created_at, d.id limit $4 for update of d`,
    [endpointId, RESENT.from, since, RESEND_FAILED_LIMIT + 1],
  );
  const ids = due.slice(0, RESEND_FAILED_LIMIT).map((d) => d.id);
  await query(
    tx,
    "update webhook_deliveries set status = $2, next_attempt_at = now(), updated_at = now() where id = any($1)",
    [ids, RESENT.to],
  );
  for (const id of ids) await enqueueJob(tx, "deliver_webhook", { deliveryId: id }, { jobKey: `resend:${id}` });
  return { object: "webhook_resend", endpoint: endpointId, queued: ids.length, has_more: due.length > ids.length };
}
