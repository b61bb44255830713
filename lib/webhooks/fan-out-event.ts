import { newId } from "@/lib/crypto/random";
import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { Mode } from "@/lib/keys/api-key-format";
import { enqueueJob } from "@/lib/jobs/enqueue-job";

export interface MatchingEndpoint {
  id: string;
  url: string;
  encrypted_secret: string;
}

/** Active, not deleted endpoints of the merchant and mode whose filter matches `type` (empty = all). */
export function matchingEndpoints(db: Db, owner: { merchantId: string; mode: Mode }, type: string): Promise<MatchingEndpoint[]> {
  return query<MatchingEndpoint>(
    db,
    `select id, url, encrypted_secret from webhook_endpoints
     where merchant_id = $1 and mode = $2 and active and deleted_at is null and (cardinality(events) = 0 or $3 = any(events))
     order by created_at`,
    [owner.merchantId, owner.mode, type],
  );
}

/**
 * Creates one delivery per matching endpoint and enqueues one job that makes all their first attempts, in
 * the event's transaction: a committed event always has its deliveries.
 */
export async function fanOutEvent(db: Db, event: { id: string; type: string; merchantId: string; mode: Mode }): Promise<string[]> {
  const endpoints = await matchingEndpoints(db, event, event.type);
  if (endpoints.length === 0) return [];
  const ids = endpoints.map(() => newId("whd_"));
  await query(
    db,
    `insert into webhook_deliveries (id, event_id, endpoint_id, merchant_id, mode, status)
     select d.id, $3, d.endpoint_id, $4, $5, 'pending' from unnest($1::text[], $2::text[]) as d(id, endpoint_id)`,
    [ids, endpoints.map((e) => e.id), event.id, event.merchantId, event.mode],
  );
  await enqueueJob(db, "deliver_event", { eventId: event.id });
  return ids;
}
