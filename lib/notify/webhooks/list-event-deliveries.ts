import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";

export interface DeliveryView {
  id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  url: string;
  status: "pending" | "succeeded" | "failed";
  /** The latest attempt's number, status code (null: no HTTP answer), error and time; null before any attempt. */
  attempt: number | null;
  status_code: number | null;
  error: string | null;
  attempted_at: string | null;
}

/** The webhook deliveries of some events of this merchant and mode, each with its latest attempt. */
export async function listEventDeliveries(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  eventIds: string[],
): Promise<DeliveryView[]> {
  if (eventIds.length === 0) return [];
  const rows = await query<{
    id: string;
    event_id: string;
    type: string;
    endpoint_id: string;
    url: string;
    status: DeliveryView["status"];
    attempt: number | null;
    status_code: number | null;
    error: string | null;
    started_at: Date | null;
  }>(
    db,
    `select d.id, d.event_id, e.type, d.endpoint_id, w.url, d.status, a.attempt, a.status_code, a.error, a.started_at
     from webhook_deliveries d
     join events e on e.id = d.event_id
     join webhook_endpoints w on w.id = d.endpoint_id
     left join lateral (select attempt, status_code, error, started_at from webhook_attempts
       where delivery_id = d.id order by attempt desc, id desc limit 1) a on true
     where d.merchant_id = $1 and d.mode = $2 and d.event_id = any($3::text[])
     order by e.created_at, e.id, d.created_at, d.id`,
    [owner.merchantId, owner.mode, eventIds],
  );
  return rows.map((r) => ({
    id: r.id,
    event_id: r.event_id,
    event_type: r.type,
    endpoint_id: r.endpoint_id,
    url: r.url,
    status: r.status,
    attempt: r.attempt ?? null,
    status_code: r.status_code ?? null,
    error: r.error ?? null,
    attempted_at: r.started_at ? r.started_at.toISOString() : null,
  }));
}
