import { DomainError } from "@/lib/kernel/domain-error";
import type { Db } from "@/lib/platform/db/client";
import { EVENT_TYPES, type EventType } from "@/lib/notify/events/event-types";
import { getEvent, listEvents } from "@/lib/notify/events/list-events";
import type { Mode } from "@/lib/kernel/mode";
import { listEventDeliveries } from "@/lib/notify/webhooks/list-event-deliveries";
import { DASHBOARD_PAGE_SIZE, pageCursor, pageLinks, withStaleCursor } from "./page-cursor";

type Owner = { merchantId: string; mode: Mode };

/** The events page: one page of the mode's events (as GET /v1/events), optionally of one type. */
export async function loadEventsPage(db: Db, owner: Owner, q: Record<string, string | undefined>) {
  const type = q.type && (EVENT_TYPES as readonly string[]).includes(q.type) ? (q.type as EventType) : undefined;
  const typeError = q.type && !type ? "Choose an event type from the list." : undefined;
  const cursor = pageCursor(q);
  const page = await withStaleCursor(() =>
    listEvents(db, owner, {
      limit: DASHBOARD_PAGE_SIZE,
      starting_after: cursor.after,
      ending_before: cursor.before,
      type,
    }),
  );
  if (page === "stale_cursor")
    return { type, typeError, staleCursor: true, events: [], links: { previous: undefined, next: undefined } };
  const events = page.events.map((e) => ({
    id: e.id,
    type: e.type,
    created_at: new Date(e.created * 1000).toISOString(),
    object_id: (e.data.object as { id?: string } | null)?.id ?? null,
  }));
  return {
    type,
    typeError,
    staleCursor: false,
    events,
    links: pageLinks(
      events.map((e) => e.id),
      cursor,
      page.hasMore,
    ),
  };
}

/** One event: its JSON body exactly as delivered (pretty-printed) and its deliveries. null → 404. */
export async function loadEventDetail(db: Db, owner: Owner, id: string) {
  let event: Awaited<ReturnType<typeof getEvent>>;
  try {
    event = await getEvent(db, owner, id);
  } catch (err) {
    if (err instanceof DomainError && err.type === "not_found") return null;
    throw err;
  }
  return {
    event,
    json: JSON.stringify(event, null, 2),
    deliveries: await listEventDeliveries(db, owner, [event.id]),
  };
}
