import { notFound } from "@/lib/kernel/domain-error";
import type { Db } from "@/lib/platform/db/client";
import { keysetPage } from "@/lib/platform/db/keyset-page";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import type { EventType } from "./event-types";
import type { EventObject } from "./record-event";

type Owner = { merchantId: string; mode: Mode };

export async function listEvents(
  db: Db,
  owner: Owner,
  page: { limit?: number; starting_after?: string; ending_before?: string; type?: EventType },
) {
  const filter = page.type
    ? { sql: "merchant_id = $1 and mode = $2 and type = $3", values: [owner.merchantId, owner.mode, page.type] }
    : { sql: "merchant_id = $1 and mode = $2", values: [owner.merchantId, owner.mode] };
  const result = await keysetPage(db, {
    table: "events",
    columns: "id, body",
    filter,
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
