import { MODES } from "@/lib/kernel/mode";
import { sql } from "drizzle-orm";
import { bigserial, customType, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** PostgreSQL's 64-bit transaction id (xid8), read as a decimal string. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

/**
 * Events, written in the same transaction as the state change that causes them. `body` is the exact JSON
 * text of the event object (docs/API.md#the-event-object) as it was at that moment: every delivery and retry sends
 * these bytes.
 *
 * `stream_xid, stream_seq` place an event in the events stream (lib/notify/events/stream-events.ts): the
 * writing transaction's id, then insertion order. A stream reads only below the oldest transaction still
 * running, so an event that commits late can never land behind a position a reader has already passed.
 */
export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id").notNull(),
    mode: text("mode", { enum: MODES }).notNull(),
    type: text("type").notNull(),
    objectId: text("object_id").notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    streamXid: xid8("stream_xid").notNull().default(sql`pg_current_xact_id()`),
    streamSeq: bigserial("stream_seq", { mode: "bigint" }).notNull(),
  },
  (t) => [
    index("events_owner_idx").on(t.merchantId, t.mode, t.createdAt, t.id),
    index("events_owner_type_idx").on(t.merchantId, t.mode, t.type, t.createdAt, t.id),
    index("events_object_idx").on(t.objectId, t.createdAt),
    index("events_stream_idx").on(t.merchantId, t.mode, t.streamXid, t.streamSeq),
  ],
);
