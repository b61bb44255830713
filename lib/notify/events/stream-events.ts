import { invalidRequest } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { changeSignal } from "@/lib/platform/db/change-feed";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { EventType } from "./event-types";

type Owner = { merchantId: string; mode: Mode };

/** A place in the events stream: after the event written by transaction `xid` with sequence `seq`. */
export interface StreamCursor {
  xid: string;
  seq: string;
}

export interface StreamedEvent {
  id: string;
  type: EventType;
  /** The event object's exact JSON text, as deliveries send it. */
  body: string;
}

const PAGE = 100;

/**
 * The stream's start when the client names no event: the oldest transaction still running. Events of
 * transactions that committed after it started are sent too (seconds old at most); none is skipped.
 */
export async function currentStreamCursor(db: Db): Promise<StreamCursor> {
  const [row] = await query<{ xid: string }>(db, "select pg_snapshot_xmin(pg_current_snapshot())::text as xid");
  return { xid: row!.xid, seq: "0" };
}

/** Just after one of the owner's events (a Last-Event-ID); an id that is not one of theirs is a 400. */
export async function streamCursorAfter(db: Db, owner: Owner, eventId: string): Promise<StreamCursor> {
  const [row] = await query<{ xid: string; seq: string }>(
    db,
    "select stream_xid::text as xid, stream_seq::text as seq " +
      "from events where id = $1 and merchant_id = $2 and mode = $3",
    [eventId, owner.merchantId, owner.mode],
  );
  if (!row) throw invalidRequest(`Last-Event-ID names no event of yours: ${eventId.slice(0, 40)}`, "Last-Event-ID");
  return row;
}

/**
 * The owner's events after `cursor` in stream order, oldest first. Only transactions below the snapshot's
 * xmin are read: every one of them has finished, and any transaction that commits later has a larger id, so
 * it lands after this page however late it commits. `readableBelow` is that xmin; `committedBelow` the
 * snapshot's xmax: every transaction committed before the read has a smaller id.
 */
export async function readStreamPage(db: Db, owner: Owner, cursor: StreamCursor, types: EventType[] | null) {
  const values: unknown[] = [owner.merchantId, owner.mode, cursor.xid, cursor.seq, PAGE];
  const typeFilter = types ? `and e.type = any($${values.push(types)}::text[])` : "";
  // One row at least (the snapshot's xmin), with the page's events joined to it.
  const rows = await query<{
    xmin: string;
    xmax: string;
    id: string | null;
    type: EventType;
    body: string;
    xid: string;
    seq: string;
  }>(
    db,
    `with snapshot as (select pg_snapshot_xmin(s) as xmin, pg_snapshot_xmax(s) as xmax from pg_current_snapshot() s)
     select snapshot.xmin::text as xmin, snapshot.xmax::text as xmax, e.id, e.type, e.body,
            e.stream_xid::text as xid, e.stream_seq::text as seq
       from snapshot left join lateral (
         select e.id, e.type, e.body, e.stream_xid, e.stream_seq from events e
          where e.merchant_id = $1 and e.mode = $2
            and (e.stream_xid, e.stream_seq) > ($3::xid8, $4::bigint)
            and e.stream_xid < snapshot.xmin
            ${typeFilter}
          order by e.stream_xid, e.stream_seq limit $5
       ) e on true
      order by e.stream_xid, e.stream_seq`,
    values,
  );
  const found = rows.filter((r) => r.id !== null);
  const last = found.at(-1);
  return {
    events: found.map(({ id, type, body }) => ({ id: id!, type, body })),
    cursor: last ? { xid: last.xid, seq: last.seq } : cursor,
    full: found.length === PAGE,
    readableBelow: BigInt(rows[0]!.xmin),
    committedBelow: BigInt(rows[0]!.xmax),
  };
}

/**
 * One read per (owner, position, types) in flight at a time in this process, shared by every stream that asks
 * for it meanwhile: an owner's streams are woken by the same notification, caught up at the same place, so an
 * event costs about one read however many streams its owner holds open. A page read a little before a stream
 * asked is as good as its own: the stream judges it by the page's snapshot (readableBelow) and reads again if a
 * notified event was not yet readable then. A stream's first read is its own (see streamEvents).
 */
const pagesInFlight = new Map<string, ReturnType<typeof readStreamPage>>();
function sharedStreamPage(db: Db, owner: Owner, cursor: StreamCursor, types: EventType[] | null) {
  const key =
    `${owner.merchantId}:${owner.mode}:${cursor.xid}:${cursor.seq}:` + `${types ? [...types].sort().join(",") : "*"}`;
  let page = pagesInFlight.get(key);
  if (!page) {
    page = readStreamPage(db, owner, cursor, types).finally(() => pagesInFlight.delete(key));
    pagesInFlight.set(key, page);
  }
  return page;
}

/** Sent by the database when a transaction that wrote events commits: `<merchant>:<mode> <its xid>`. */
export const EVENT_CREATED = "event_created";
/** How soon to look again for a notified event whose transaction is not yet below every running one. */
const NOT_YET_READABLE_MS = [50, 100, 250, 500, 1_000];

/**
 * Every event after `cursor` as it becomes readable: the backlog page by page, then a read each time the
 * database says one of the owner's transactions wrote events (lib/platform/db/change-feed.ts), until
 * `signal` aborts, `maxMs` passes (the client then resumes with Last-Event-ID: no connection is held for
 * hours) or `allowed` says no. A notified event stays unreadable while an older transaction runs; the stream looks
 * again shortly, then each second, until it is. On its first read, and after the feed's connection was lost, it
 * does not know what was notified, so it waits in the same way for every transaction committed by then.
 */
export async function* streamEvents(
  db: Db,
  owner: Owner,
  opts: {
    cursor: StreamCursor;
    types: EventType[] | null;
    signal: AbortSignal;
    maxMs?: number;
    /** Asked before each page is read: false ends the stream (the key that opened it no longer may read). */
    allowed?: () => Promise<boolean>;
  },
): AsyncGenerator<StreamedEvent> {
  const deadline = Date.now() + (opts.maxMs ?? 15 * 60_000);
  const changes = changeSignal(EVENT_CREATED, `${owner.merchantId}:${owner.mode}`);
  try {
    let cursor = opts.cursor;
    let awaited = -1n; // the newest notified transaction not yet seen readable
    let unknown = true; // what committed before this read may not have been notified to this stream
    let retries = 0;
    while (!opts.signal.aborted && Date.now() < deadline) {
      if (opts.allowed && !(await opts.allowed())) return;
      // The first read is this stream's own: one started before it subscribed could miss a commit it was never
      // notified of. Later reads may be shared: every commit since the subscription is notified to it.
      const page = unknown
        ? await readStreamPage(db, owner, cursor, opts.types)
        : await sharedStreamPage(db, owner, cursor, opts.types);
      if (unknown && page.committedBelow - 1n > awaited) awaited = page.committedBelow - 1n;
      unknown = false;
      cursor = page.cursor;
      for (const event of page.events) yield event;
      if (page.full) continue;
      const pending = awaited >= page.readableBelow;
      retries = pending ? retries + 1 : 0;
      const wait = pending
        ? NOT_YET_READABLE_MS[Math.min(retries, NOT_YET_READABLE_MS.length) - 1]!
        : deadline - Date.now();
      for (const detail of await changes.next(Math.max(0, wait), opts.signal)) {
        if (detail === null) unknown = true;
        else if (BigInt(detail) > awaited) awaited = BigInt(detail);
      }
    }
  } finally {
    changes.close();
  }
}
