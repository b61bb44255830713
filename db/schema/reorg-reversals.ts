import { MODES } from "@/lib/kernel/mode";
import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Credited deposits that a reorganization deeper than the required confirmations removed from the chain
 * (docs/CHAINS.md). Each row is the operator's record of one reversal: `amount_units` went back to
 * `chain_deposits`, `taken_from_available_units` of it out of the merchant's available balance and the
 * rest, `receivable_units`, onto `reorg_receivables` (what the merchant owes the operator). The payment
 * stays `confirmed`. If the same transfer is mined again, its deposit is revived and, when credited
 * again, first settles the receivable: `settled_at` and `settled_block_number` are then set.
 */
export const reorgReversals = pgTable(
  "reorg_reversals",
  {
    id: text("id").primaryKey(),
    depositId: text("deposit_id").notNull(),
    /** Null for a deposit address's deposit. */
    paymentId: text("payment_id"),
    merchantId: text("merchant_id").notNull(),
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").notNull(),
    txHash: text("tx_hash").notNull(),
    amountUnits: bigint("amount_units", { mode: "bigint" }).notNull(),
    takenFromAvailableUnits: bigint("taken_from_available_units", { mode: "bigint" }).notNull(),
    receivableUnits: bigint("receivable_units", { mode: "bigint" }).notNull(),
    /** The block the deposit was in, which the reorganization removed. */
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    blockHash: text("block_hash").notNull(),
    /** The newest block both branches share (-1: none remembered). */
    ancestorBlockNumber: bigint("ancestor_block_number", { mode: "number" }).notNull(),
    detectedAt: timestamp("detected_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    settledAt: timestamp("settled_at", { withTimezone: true, precision: 3 }),
    /** The block the transfer was mined again in, once its new credit settled this reversal. */
    settledBlockNumber: bigint("settled_block_number", { mode: "number" }),
  },
  (t) => [
    uniqueIndex("reorg_reversals_open_key").on(t.depositId).where(sql`${t.settledAt} is null`),
    index("reorg_reversals_detected_idx").on(t.mode, t.chain, t.detectedAt),
    index("reorg_reversals_merchant_idx").on(t.merchantId, t.detectedAt),
    check(
      "reorg_reversals_amounts",
      // Joined as is: drizzle-kit compares this text with the migrations' snapshot, whitespace included.
      sql.join([
        sql`${t.takenFromAvailableUnits} >= 0 and ${t.receivableUnits} >= 0 and `,
        sql`${t.takenFromAvailableUnits} + ${t.receivableUnits} = ${t.amountUnits}`,
      ]),
    ),
  ],
);
