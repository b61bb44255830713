import { MODES } from "@/lib/kernel/mode";
import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { Metadata } from "@/lib/kernel/schemas/metadata";
import { merchants } from "./merchants";

/**
 * A merchant's customers (docs/API.md#customers): who a deposit address or a payment belongs to. `reference` is
 * the merchant's own id for them, unique per merchant and mode among customers not deleted; a deleted customer
 * keeps its row (payments and deposits name it) with `deleted_at` set, its reference free again.
 */
export const customers = pgTable(
  "customers",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: MODES }).notNull(),
    name: text("name"),
    email: text("email"),
    reference: text("reference"),
    metadata: jsonb("metadata").$type<Metadata>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex("customers_reference_key")
      .on(t.merchantId, t.mode, t.reference)
      .where(sql`${t.deletedAt} is null and ${t.reference} is not null`),
    index("customers_owner_idx").on(t.merchantId, t.mode, t.createdAt, t.id),
    index("customers_email_lower_idx").on(t.merchantId, t.mode, sql`lower(${t.email})`),
  ],
);
