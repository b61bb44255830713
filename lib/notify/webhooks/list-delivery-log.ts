import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { type AttemptView, listAttempts } from "./list-attempts";

export type DeliveryLogEntry = AttemptView & { event_type: string };

/**
 * The delivery log of one endpoint or one event (the dashboard's, and the Events pages'): every attempt,
 * newest first, with its event's type, status code, latency and response excerpt. Scoped by merchant and
 * mode like listAttempts; `starting_after` is the last attempt id of the previous page.
 */
export async function listDeliveryLog(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  of: { eventId?: string; endpointId?: string },
  page: { limit?: number; starting_after?: string } = {},
): Promise<{ data: DeliveryLogEntry[]; hasMore: boolean }> {
  const attempts = await listAttempts(db, owner, of, page);
  const eventIds = [...new Set(attempts.data.map((a) => a.event_id))];
  const types = new Map(
    eventIds.length === 0
      ? []
      : (
          await query<{ id: string; type: string }>(
            db,
            "select id, type from events where id = any($1) and merchant_id = $2 and mode = $3",
            [eventIds, owner.merchantId, owner.mode],
          )
        ).map((e) => [e.id, e.type] as const),
  );
  return {
    data: attempts.data.map((a) => ({ ...a, event_type: types.get(a.event_id) ?? "unknown" })),
    hasMore: attempts.hasMore,
  };
}
