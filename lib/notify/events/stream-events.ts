import { invalidRequest } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { sleep } from "@/lib/kernel/sleep";
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
    "select stream_xid::text as xid, stream_seq::text as seq from events where id = $1 and merchant_id = $2 and mode = $3",
    [eventId, owner.merchantId, owner.mode],
  );
  if (!row) throw invalidRequest(`Last-Event-ID names no event of yours: ${eventId.slice(0, 40)}`, "Last-Event-ID");
  return row;
}

/**
 * The owner's events after `cursor` in stream order, oldest first. Only transactions below the snapshot's
 * xmin are read: every one of them has finished, and any transaction that commits later has a larger id, so
 * it lands after this page however late it commits.
 */
export async function readStreamPage(db: Db, owner: Owner, cursor: StreamCursor, types: EventType[] | null) {
  const values: unknown[] = [owner.merchantId, owner.mode, cursor.xid, cursor.seq, PAGE];
  const typeFilter = types ? `and type = any($${values.push(types)}::text[])` : "";
  const rows = await query<StreamedEvent & { xid: string; seq: string }>(
    db,
    `select id, type, body, stream_xid::text as xid, stream_seq::text as seq from events
      where merchant_id = $1 and mode = $2
        and (stream_xid, stream_seq) > ($3::xid8, $4::bigint)
        and stream_xid < pg_snapshot_xmin(pg_current_snapshot())
        ${typeFilter}
      order by stream_xid, stream_seq limit $5`,
    values,
  );
  const last = rows.at(-1);
  return {
    events: rows.map(({ id, type, body }) => ({ id, type, body })),
    cursor: last ? { xid: last.xid, seq: last.seq } : cursor,
    full: rows.length === PAGE,
  };
}

/**
 * Every event after `cursor` as it becomes readable: the backlog page by page, then a check each
 * `intervalMs`, until `signal` aborts or `maxMs` passes (the client then resumes with Last-Event-ID: no
 * connection is held for hours).
 */
export async function* streamEvents(
  db: Db,
  owner: Owner,
  opts: {
    cursor: StreamCursor;
    types: EventType[] | null;
    signal: AbortSignal;
    intervalMs?: number;
    maxMs?: number;
  },
): AsyncGenerator<StreamedEvent> {
  const deadline = Date.now() + (opts.maxMs ?? 15 * 60_000);
  let cursor = opts.cursor;
  while (!opts.signal.aborted && Date.now() < deadline) {
    const page = await readStreamPage(db, owner, cursor, opts.types);
    cursor = page.cursor;
    for (const event of page.events) yield event;
    if (!page.full) await sleep(opts.intervalMs ?? 1_000, opts.signal);
  }
}
