import { MODES } from "@/lib/modes/mode";
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { Metadata } from "@/lib/api/metadata";
import type { Chain } from "@/lib/chains/chains";
import type { PayoutStatus } from "@/lib/payouts/schemas";
import { merchants } from "./merchants";

/** Payouts: withdrawals of available balance to an on-chain address (USDT base units). */
export const payouts = pgTable(
  "payouts",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: MODES }).notNull(),
    status: text("status").$type<PayoutStatus>().notNull(),
    chain: text("chain").$type<Chain>().notNull(),
    toAddress: text("to_address").notNull(),
    amountUnits: bigint("amount_units", { mode: "bigint" }).notNull(),
    description: text("description"),
    metadata: jsonb("metadata").$type<Metadata>().notNull().default({}),
    txHash: text("tx_hash"),
    confirmations: integer("confirmations"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, precision: 3 }),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index("payouts_owner_idx").on(t.merchantId, t.mode, t.createdAt, t.id),
    index("payouts_owner_status_idx").on(t.merchantId, t.mode, t.status, t.createdAt, t.id),
    check("payouts_amount_positive", sql`${t.amountUnits} > 0`),
    check(
      "payouts_status_check",
      sql`${t.status} in ('pending','review_required','processing','confirmed','failed','blocked')`,
    ),
    check("payouts_chain_check", sql`${t.chain} in ('eth','bnb','polygon','tron','solana')`),
  ],
);
