import { MODES } from "@/lib/kernel/mode";
import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Events, written in the same transaction as the state change that causes them. `body` is the exact JSON
 * text of the event object (docs/API.md#the-event-object) as it was at that moment: every delivery and retry sends these bytes.
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
  },
  (t) => [
    index("events_owner_idx").on(t.merchantId, t.mode, t.createdAt, t.id),
    index("events_owner_type_idx").on(t.merchantId, t.mode, t.type, t.createdAt, t.id),
    index("events_object_idx").on(t.objectId, t.createdAt),
  ],
);
