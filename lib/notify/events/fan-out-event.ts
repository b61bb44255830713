import { newId } from "@/lib/kernel/random";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";

export interface MatchingEndpoint {
  id: string;
  url: string;
  encrypted_secret: string;
}

const ACTIVE = "active and deleted_at is null";

/** Active, not deleted endpoints of the merchant and mode whose filter matches `type` (empty = all). */
export function matchingEndpoints(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  type: string,
): Promise<MatchingEndpoint[]> {
  return query<MatchingEndpoint>(
    db,
    `select id, url, encrypted_secret from webhook_endpoints
     where merchant_id = $1 and mode = $2 and ${ACTIVE} and (cardinality(events) = 0 or $3 = any(events))
     order by created_at`,
    [owner.merchantId, owner.mode, type],
  );
}

export interface FanOutEvent {
  id: string;
  type: string;
  merchantId: string;
  mode: Mode;
}

/**
 * Creates one delivery per matching endpoint of each event and enqueues one job per event that makes all
 * its first attempts, in the events' transaction: a committed event always has its deliveries. One query
 * finds the endpoints of every merchant involved, one statement inserts every delivery.
 */
export async function fanOutEvents(db: Db, events: FanOutEvent[]): Promise<void> {
  if (events.length === 0) return;
  const owners = [...new Map(events.map((e) => [`${e.merchantId}\0${e.mode}`, e])).values()];
  const endpoints = await query<{ id: string; merchant_id: string; mode: Mode; events: string[] }>(
    db,
    `select w.id, w.merchant_id, w.mode, w.events from webhook_endpoints w
     join unnest($1::text[], $2::text[]) as o(merchant_id, mode) using (merchant_id, mode)
     where ${ACTIVE} order by w.created_at`,
    [owners.map((o) => o.merchantId), owners.map((o) => o.mode)],
  );
  if (endpoints.length === 0) return;
  const deliveries: { id: string; eventId: string; endpointId: string; merchantId: string; mode: Mode }[] = [];
  const withDeliveries: string[] = [];
  for (const event of events) {
    const targets = endpoints.filter(
      (w) =>
        w.merchant_id === event.merchantId &&
        w.mode === event.mode &&
        (w.events.length === 0 || w.events.includes(event.type)),
    );
    if (targets.length === 0) continue;
    withDeliveries.push(event.id);
    for (const w of targets)
      deliveries.push({
        id: newId("whd_"),
        eventId: event.id,
        endpointId: w.id,
        merchantId: event.merchantId,
        mode: event.mode,
      });
  }
  if (deliveries.length === 0) return;
  await query(
    db,
    `insert into webhook_deliveries (id, event_id, endpoint_id, merchant_id, mode, status)
     select d.id, d.event_id, d.endpoint_id, d.merchant_id, d.mode, 'pending'
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
         as d(id, event_id, endpoint_id, merchant_id, mode)`,
    [
      deliveries.map((d) => d.id),
      deliveries.map((d) => d.eventId),
      deliveries.map((d) => d.endpointId),
      deliveries.map((d) => d.merchantId),
      deliveries.map((d) => d.mode),
    ],
  );
  for (const eventId of withDeliveries) await enqueueJob(db, "deliver_event", { eventId });
}
