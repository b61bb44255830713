import { MODES } from "@/lib/kernel/mode";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * Every token transfer seen to a deposit address, once each: a transfer is identified by its chain,
 * transaction and `position` within the transaction (lib/chains/chain-adapter.ts), which stays the same
 * when a reorganization mines the transaction again in another block, unlike `log_index` (the position in
 * the block, kept for chain order). A re-mined transfer revives its orphaned row instead of adding one.
 * `position` is null only on legacy duplicates the migration could not key (docs/CHAINS.md). `raw_amount` is
 * exactly what the chain moved (its own decimals); `amount_units` is that in USDT base units (6 decimals,
 * rounded down). `pending` amounts sit in `reserved`; `credited` ones moved to `available`; `orphaned` ones
 * were removed by a reorganization and reversed (a credited one through a `reorg_reversals` row).
 * `kind`: `payment` (on the payment's chain) or `wrong_network` (to the same address on another chain of
 * the family; credited to that chain's balance, not counted toward the payment), or `address` (to a permanent
 * deposit address; `deposit_address_id` instead of `payment_id`). `ignored` deposits are below the chain's
 * minimum (dust): recorded, held in custody, never credited.
 */
export const deposits = pgTable(
  "deposits",
  {
    id: text("id").primaryKey(),
    paymentId: text("payment_id"),
    depositAddressId: text("deposit_address_id"),
    merchantId: text("merchant_id").notNull(),
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").notNull(),
    kind: text("kind", { enum: ["payment", "wrong_network", "address"] }).notNull(),
    status: text("status", { enum: ["pending", "credited", "orphaned", "ignored"] }).notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    position: integer("position"),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    blockHash: text("block_hash").notNull(),
    blockTime: timestamp("block_time", { withTimezone: true, precision: 3 }).notNull(),
    fromAddress: text("from_address"),
    toAddress: text("to_address").notNull(),
    rawAmount: numeric("raw_amount", { precision: 78, scale: 0 }).notNull(),
    amountUnits: bigint("amount_units", { mode: "bigint" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    creditedAt: timestamp("credited_at", { withTimezone: true, precision: 3 }),
    orphanedAt: timestamp("orphaned_at", { withTimezone: true, precision: 3 }),
    /** kind `address`: the deposit address was disabled when the transfer was recorded (credited all the same). */
    addressDisabled: boolean("address_disabled").notNull().default(false),
  },
  (t) => [
    uniqueIndex("deposits_transfer_key").on(t.mode, t.chain, t.txHash, t.position),
    index("deposits_payment_idx").on(t.paymentId, t.blockNumber, t.logIndex),
    index("deposits_deposit_address_idx")
      .on(t.depositAddressId, t.blockNumber, t.logIndex)
      .where(sql`${t.depositAddressId} is not null`),
    index("deposits_owner_idx").on(t.merchantId, t.mode, t.createdAt, t.id).where(sql`${t.kind} = 'address'`),
    // Reconciliation's dust held (lib/books/custody/custody-books.ts), without reading every deposit.
    index("deposits_dust_idx").on(t.mode, t.chain).where(sql`${t.status} = 'ignored'`),
    // Search: a payment found by a transfer's hash or sender (lib/reports/search).
    index("deposits_tx_hash_lower_idx").on(sql`lower(${t.txHash})`),
    index("deposits_from_address_lower_idx").on(sql`lower(${t.fromAddress})`),
    index("deposits_uncredited_idx").on(t.mode, t.chain, t.blockNumber).where(sql`${t.status} = 'pending'`),
    check("deposits_amount_nonnegative", sql`${t.amountUnits} >= 0`),
    check("deposits_status_check", sql`${t.status} in ('pending','credited','orphaned','ignored')`),
    check("deposits_kind_check", sql`${t.kind} in ('payment','wrong_network','address')`),
    check(
      "deposits_owner_check",
      sql`case when ${t.kind} = 'address' then ${t.depositAddressId} is not null and ${t.paymentId} is null
        else ${t.paymentId} is not null and ${t.depositAddressId} is null end`,
    ),
  ],
);
