import { MODES } from "@/lib/kernel/mode";
import { sql } from "drizzle-orm";
import {
  bigserial,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { Chain } from "@/lib/chains/chains";
import type { CustodyAccount, CustodyAsset, CustodyCause } from "@/lib/books/custody/custody-types";

/**
 * The installation's own books (docs/CUSTODY.md): what the service holds on chain, apart from what merchants
 * are owed (`ledger_entries`). Append-only double entry: every journal (`journal_id`) sums to zero per asset.
 * Amounts are signed, in the asset's on-chain base units (the token's raw units for `usdt`, so they match chain
 * balances exactly even with 18 decimals; wei, sun or lamports for `native`). `address` is the service address
 * an internal account's entry concerns (the deposit address, the treasury …; the sender for `in_flight`), null
 * for the external accounts.
 */
export const custodyEntries = pgTable(
  "custody_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    journalId: text("journal_id").notNull(),
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").$type<Chain>().notNull(),
    asset: text("asset").$type<CustodyAsset>().notNull(),
    account: text("account").$type<CustodyAccount>().notNull(),
    address: text("address"),
    amount: numeric("amount", { precision: 78, scale: 0, mode: "bigint" }).notNull(),
    causeType: text("cause_type").$type<CustodyCause["type"]>().notNull(),
    causeId: text("cause_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index("custody_entries_account_idx").on(t.mode, t.chain, t.asset, t.account, t.address),
    index("custody_entries_journal_idx").on(t.journalId),
    index("custody_entries_cause_idx").on(t.causeType, t.causeId),
    check("custody_entries_asset_check", sql`${t.asset} in ('usdt','native')`),
    check(
      "custody_entries_account_check",
      // Joined as is: drizzle-kit compares this text with the migrations' snapshot, whitespace included.
      sql.join([
        sql`${t.account} in ('deposit_addresses','treasury','sweeper','in_flight','payers','payees','fees',`,
        sql`'token_account_rent','funding')`,
      ]),
    ),
    check("custody_entries_cause_check", sql`${t.causeType} in ('deposit','outbound','funding')`),
    check("custody_entries_nonzero", sql`${t.amount} <> 0`),
  ],
);

/**
 * Native coin given to (positive) or taken from (negative) the treasury or the sweeper from outside the service,
 * booked as a custody journal (`cause_type` funding) against the external account `funding`: the sandbox faucet's
 * transfers, and what an operator records with `cli custody fund` (docs/CUSTODY.md, "Native coin, to the unit").
 * A transaction is booked once per address (`tx_hash`, when known).
 */
export const custodyFundings = pgTable(
  "custody_fundings",
  {
    id: text("id").primaryKey(),
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").$type<Chain>().notNull(),
    role: text("role").$type<"treasury" | "sweeper">().notNull(),
    address: text("address").notNull(),
    /** Signed, in wei, sun or lamports. */
    amount: numeric("amount", { precision: 78, scale: 0, mode: "bigint" }).notNull(),
    txHash: text("tx_hash"),
    source: text("source").$type<"faucet" | "operator">().notNull(),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("custody_fundings_tx_idx").on(t.mode, t.chain, t.txHash, t.address).where(sql`${t.txHash} is not null`),
    index("custody_fundings_time_idx").on(t.mode, t.chain, t.createdAt),
    check("custody_fundings_role_check", sql`${t.role} in ('treasury','sweeper')`),
    check("custody_fundings_source_check", sql`${t.source} in ('faucet','operator')`),
    check("custody_fundings_nonzero", sql`${t.amount} <> 0`),
  ],
);

/**
 * The last reconciliation of each (mode, chain) (worker job reconcile_custody), for the metrics and whoever
 * asks next: what it found, in USDT base units of 6 decimals (`shortfall_units`: less on chain than merchants
 * are owed; `unmatched_units`: less than the custody books hold; both 0 when nothing is missing).
 */
export const reconcileResults = pgTable(
  "reconcile_results",
  {
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").$type<Chain>().notNull(),
    checkedAt: timestamp("checked_at", { withTimezone: true, precision: 3 }).notNull(),
    shortfallUnits: numeric("shortfall_units", { precision: 78, scale: 0 }).notNull(),
    unmatchedUnits: numeric("unmatched_units", { precision: 78, scale: 0 }).notNull(),
    gasShort: integer("gas_short").notNull(),
    alerts: jsonb("alerts").$type<string[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.mode, t.chain] })],
);
