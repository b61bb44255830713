import { MODES } from "@/lib/kernel/mode";
import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { merchants } from "./merchants";

/** Payment links: a fixed amount (USDT base units, 6 decimals) payable for 30 minutes through /pay/<token>. */
export const paymentLinks = pgTable(
  "payment_links",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: MODES }).notNull(),
    token: text("token").notNull(),
    amountUnits: bigint("amount_units", { mode: "bigint" }).notNull(),
    description: text("description"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex("payment_links_token_key").on(t.token),
    index("payment_links_owner_idx").on(t.merchantId, t.mode, t.createdAt, t.id),
    check("payment_links_amount_positive", sql`${t.amountUnits} > 0`),
  ],
);
