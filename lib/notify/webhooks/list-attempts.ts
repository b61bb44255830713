import type { WebhookAttemptObject } from "./webhook-objects";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";

/** One attempt as the API and the dashboard show it. */
export type AttemptView = WebhookAttemptObject;

/**
 * Delivery attempts of one event or one endpoint of this merchant and mode, newest first, for the
 * dashboard and for merchants debugging their receiver. `starting_after` is an attempt id (`wha_<n>`).
 */
export async function listAttempts(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  of: { eventId?: string; endpointId?: string },
  page: { limit?: number; starting_after?: string },
): Promise<{ data: AttemptView[]; hasMore: boolean }> {
  const limit = page.limit ?? 20;
  const before =
    page.starting_after && /^wha_\d+$/.test(page.starting_after) ? Number(page.starting_after.slice(4)) : null;
  const rows = await query<{
    id: string;
    event_id: string;
    endpoint_id: string;
    url: string;
    attempt: number;
    started_at: Date;
    success: boolean;
    status_code: number | null;
    error: string | null;
    duration_ms: number;
    response_body: string | null;
  }>(
    db,
    `select a.id, d.event_id, d.endpoint_id, w.url, a.attempt, a.started_at, a.success, a.status_code, a.error,
       a.duration_ms, a.response_body
     from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
       join webhook_endpoints w on w.id = d.endpoint_id
     where d.merchant_id = $1 and d.mode = $2 and ($3::text is null or d.event_id = $3)
       and ($4::text is null or d.endpoint_id = $4)
       and ($5::bigint is null or a.id < $5)
     order by a.id desc limit $6`,
    [owner.merchantId, owner.mode, of.eventId ?? null, of.endpointId ?? null, before, limit + 1],
  );
  const data = rows.slice(0, limit).map(
    (r): AttemptView => ({
      id: `wha_${r.id}`,
      object: "webhook_attempt",
      event_id: r.event_id,
      endpoint_id: r.endpoint_id,
      url: r.url,
      attempt: r.attempt,
      created_at: r.started_at.toISOString(),
      success: r.success,
      status_code: r.status_code ?? null,
      error: r.error ?? null,
      latency_ms: r.duration_ms,
      response_body: r.response_body ?? null,
    }),
  );
  return { data, hasMore: rows.length > limit };
}
