import { MODES } from "@/lib/kernel/mode";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { Metadata } from "@/lib/kernel/schemas/metadata";
import type { Chain } from "@/lib/chains/chains";
import type { PayoutStatus } from "@/lib/money-out/payouts/schemas";
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
    /** The outbound transaction that pays it (lib/money-out/outbound), once the executor has queued it. */
    outboundId: text("outbound_id"),
    /** Set when an operator approved it out of review: the review policy is not applied again. */
    approvedAt: timestamp("approved_at", { withTimezone: true, precision: 3 }),
    /** Who created it: a dashboard user, or an API key (whose creator counts); both null for older rows. */
    createdByUserId: text("created_by_user_id"),
    createdByKeyId: text("created_by_key_id"),
    /** Why it failed or was blocked (docs/PAYOUTS.md, "Failure codes"). */
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    confirmations: integer("confirmations"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, precision: 3 }),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index("payouts_owner_idx").on(t.merchantId, t.mode, t.createdAt, t.id),
    // Search (lib/reports/search): every field a term reads is an index, so a term is one bitmap of index scans.
    index("payouts_to_address_lower_idx").on(sql`lower(${t.toAddress})`),
    index("payouts_tx_hash_lower_idx").on(sql`lower(${t.txHash})`),
    index("payouts_amount_idx").on(t.amountUnits),
    index("payouts_metadata_idx").using("gin", t.metadata),
    index("payouts_description_trgm_idx").using("gin", sql`${t.description} gin_trgm_ops`),
    index("payouts_owner_status_idx").on(t.merchantId, t.mode, t.status, t.createdAt, t.id),
    check("payouts_amount_positive", sql`${t.amountUnits} > 0`),
    check(
      "payouts_status_check",
      sql`${t.status} in ('pending','review_required','processing','confirmed','failed','blocked')`,
    ),
    check("payouts_chain_check", sql`${t.chain} in ('eth','bnb','polygon','tron','solana')`),
    index("payouts_open_idx").on(t.mode, t.chain, t.createdAt).where(sql`${t.status} in ('pending','processing')`),
    // The metrics' count of payouts that ended in the last 24 hours, without reading older ones.
    index("payouts_updated_idx").on(t.updatedAt),
  ],
);

/**
 * The operator's deny-list (besides PAYOUT_DENYLIST_FILE): payouts to these addresses are blocked, never
 * signed. `chain` null: the address on every chain where it is valid. `address` is stored normalised
 * (lowercase for 0x addresses). `source`: `cli` (added by hand) or `ofac` (the SDN import, which replaces
 * all `ofac` rows at once and never touches `cli` ones; an address can be on both).
 */
export const payoutDenylist = pgTable(
  "payout_denylist",
  {
    id: text("id").primaryKey(),
    chain: text("chain").$type<Chain>(),
    address: text("address").notNull(),
    reason: text("reason"),
    source: text("source").$type<"cli" | "ofac">().notNull().default("cli"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payout_denylist_entry_key").on(sql`coalesce(${t.chain}, '*')`, t.address, t.source),
    check("payout_denylist_source_check", sql`${t.source} in ('cli','ofac')`),
    // isDenied looks up by address; an OFAC import brings thousands of rows.
    index("payout_denylist_address_idx").on(t.address),
  ],
);

/** A merchant's review policy per mode: payouts above an amount (or to new destinations) wait for approval. */
export const payoutPolicies = pgTable(
  "payout_policies",
  {
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: MODES }).notNull(),
    reviewAboveUnits: bigint("review_above_units", { mode: "bigint" }),
    reviewNewDestinations: boolean("review_new_destinations").notNull().default(false),
    /** A payout's creator may approve it: allowed only while the team has a single approver. */
    allowSelfApproval: boolean("allow_self_approval").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.mode] })],
);
