import { MODES } from "@/lib/kernel/mode";
import { boolean, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { EventType } from "@/lib/notify/events/event-types";
import { merchants } from "./merchants";

/** Webhook endpoints. The signing secret is needed to sign, so it is stored encrypted, not hashed. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: MODES }).notNull(),
    url: text("url").notNull(),
    events: text("events").array().$type<EventType[]>().notNull(),
    active: boolean("active").notNull().default(true),
    encryptedSecret: text("encrypted_secret").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    /** Deleted endpoints are kept (their delivery history stays readable) but never listed or delivered to. */
    deletedAt: timestamp("deleted_at", { withTimezone: true, precision: 3 }),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_owner_idx").on(t.merchantId, t.mode, t.createdAt, t.id)],
);
