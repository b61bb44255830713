import { notFound } from "@/lib/kernel/domain-error";
import type { Db } from "@/lib/platform/db/client";
import { keysetPage } from "@/lib/platform/db/keyset-page";
import { query } from "@/lib/platform/db/query";
import { listFilterSql } from "@/lib/platform/db/list-filter-sql";
import type { ListFilters } from "@/lib/kernel/schemas/list-filters";
import type { Mode } from "@/lib/kernel/mode";
import type { EventType } from "./event-types";
import type { EventObject } from "./record-event";

type Owner = { merchantId: string; mode: Mode };

/**
 * `delivery_success`: false keeps events with a delivery not (yet) delivered, pending or given up; true keeps
 * events every delivery of which succeeded (events no endpoint wanted have no delivery and are neither).
 */
const DELIVERY_FILTER = {
  false: "exists (select 1 from webhook_deliveries d where d.event_id = events.id and d.status <> 'succeeded')",
  true:
    "exists (select 1 from webhook_deliveries d where d.event_id = events.id) and " +
    "not exists (select 1 from webhook_deliveries d where d.event_id = events.id and d.status <> 'succeeded')",
};

export async function listEvents(
  db: Db,
  owner: Owner,
  page: {
    limit?: number;
    starting_after?: string;
    ending_before?: string;
    type?: EventType;
    delivery_success?: boolean;
    created?: ListFilters["created"];
  },
) {
  const clauses = ["merchant_id = $1", "mode = $2"];
  const values: unknown[] = [owner.merchantId, owner.mode];
  if (page.type) clauses.push(`type = $${values.push(page.type)}`);
  if (page.delivery_success !== undefined) clauses.push(DELIVERY_FILTER[`${page.delivery_success}`]);
  clauses.push(...listFilterSql({ created: page.created }, values));
  const result = await keysetPage(db, {
    table: "events",
    columns: "id, body",
    filter: { sql: clauses.join(" and "), values },
    limit: page.limit,
    startingAfter: page.starting_after,
    endingBefore: page.ending_before,
    noun: "event",
  });
  return { events: result.rows.map((r) => JSON.parse(r.body as string) as EventObject), hasMore: result.hasMore };
}

export async function getEvent(db: Db, owner: Owner, id: string): Promise<EventObject> {
  const [row] = await query<{ body: string }>(
    db,
    "select body from events where id = $1 and merchant_id = $2 and mode = $3",
    [id, owner.merchantId, owner.mode],
  );
  if (!row) throw notFound("event", id);
  return JSON.parse(row.body) as EventObject;
}

/** The events one object (a payment, a payout) emitted, oldest first: what a detail page's timeline shows. */
export async function listObjectEvents(db: Db, owner: Owner, objectId: string) {
  const rows = await query<{ id: string; type: string; created_at: Date }>(
    db,
    `select id, type, created_at from events
      where object_id = $1 and merchant_id = $2 and mode = $3 order by created_at, id`,
    [objectId, owner.merchantId, owner.mode],
  );
  return rows.map((r) => ({ id: r.id, type: r.type, createdAt: r.created_at }));
}
