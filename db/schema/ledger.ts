import { MODES } from "@/lib/kernel/mode";
import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The append-only double-entry journal. Every movement of money is one journal (`journal_id`) of two or
 * more entries whose amounts (signed USDT base units) sum to zero, each referencing its cause.
 * Accounts: `available`, `reserved`, `payouts_in_flight`, `refunds_in_flight` (the merchant's) and the external
 * counterparts `chain_deposits`, `chain_withdrawals`, `adjustments`, `reorg_receivables` (what a merchant owes
 * the operator after a deep reorganization reversed a credit its available balance could not cover: its
 * entries sum to minus the open `reorg_reversals.receivable_units`).
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    journalId: text("journal_id").notNull(),
    merchantId: text("merchant_id").notNull(),
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").notNull(),
    account: text("account").notNull(),
    amountUnits: bigint("amount_units", { mode: "bigint" }).notNull(),
    /**
     * On an `available` entry: the merchant's available balance on that chain right after it (the balance
     * transactions' running balance), written under the balances row's lock; null on every other account.
     */
    availableAfterUnits: bigint("available_after_units", { mode: "bigint" }),
    causeType: text("cause_type", { enum: ["payment", "deposit", "payout", "refund", "adjustment"] }).notNull(),
    causeId: text("cause_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index("ledger_entries_owner_idx").on(t.merchantId, t.mode, t.chain, t.account),
    index("ledger_entries_cause_idx").on(t.causeType, t.causeId),
    index("ledger_entries_journal_idx").on(t.journalId),
    // The balance transactions: a merchant's `available` entries in the order they moved the balance.
    index("ledger_entries_available_idx").on(t.merchantId, t.mode, t.id).where(sql`${t.account} = 'available'`),
    check(
      "ledger_entries_account_check",
      // Joined as is: drizzle-kit compares this text with the migrations' snapshot, whitespace included.
      sql.join([
        sql`${t.account} in ('available','reserved','payouts_in_flight','refunds_in_flight',`,
        sql`'chain_deposits','chain_withdrawals','adjustments','reorg_receivables')`,
      ]),
    ),
    check("ledger_entries_nonzero", sql`${t.amountUnits} <> 0`),
    check("ledger_entries_available_after", sql`(${t.account} = 'available') = (${t.availableAfterUnits} is not null)`),
  ],
);

/**
 * Balances per merchant, mode and chain, maintained in the same transaction as the journal entries that
 * move them (the consistency check recomputes them from the journal). `available` can never go negative.
 */
export const balances = pgTable(
  "balances",
  {
    merchantId: text("merchant_id").notNull(),
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").notNull(),
    availableUnits: bigint("available_units", { mode: "bigint" }).notNull().default(sql`0`),
    reservedUnits: bigint("reserved_units", { mode: "bigint" }).notNull().default(sql`0`),
    inFlightUnits: bigint("in_flight_units", { mode: "bigint" }).notNull().default(sql`0`),
    /** The merchant's refunds created and not yet succeeded, failed or canceled. */
    refundsInFlightUnits: bigint("refunds_in_flight_units", { mode: "bigint" }).notNull().default(sql`0`),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.mode, t.chain] }),
    check("balances_available_nonnegative", sql`${t.availableUnits} >= 0`),
    check("balances_reserved_nonnegative", sql`${t.reservedUnits} >= 0`),
    check("balances_in_flight_nonnegative", sql`${t.inFlightUnits} >= 0`),
    check("balances_refunds_in_flight_nonnegative", sql`${t.refundsInFlightUnits} >= 0`),
  ],
);
