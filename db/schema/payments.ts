import { MODES } from "@/lib/kernel/mode";
import { sql } from "drizzle-orm";
import {
  bigint,
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
import { CHAIN_FAMILIES, POOL_PURPOSES } from "@/lib/kernel/chain-ids";
import { customers } from "./customers";
import { merchants } from "./merchants";

export const PAYMENT_STATUSES = [
  "intent_created",
  "awaiting_payment",
  "pending",
  "confirming",
  "confirmed",
  "expired",
  "failed",
] as const;

/**
 * Payment intents. Amounts are USDT base units (6 decimals). `chain`, `deposit_address` and
 * `derivation_index` stay null for a chain-agnostic intent until the payer picks a network.
 */
export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: MODES }).notNull(),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull(),
    chain: text("chain").$type<Chain>(),
    amountUnits: bigint("amount_units", { mode: "bigint" }).notNull(),
    depositAddress: text("deposit_address"),
    derivationIndex: bigint("derivation_index", { mode: "number" }),
    description: text("description"),
    metadata: jsonb("metadata").$type<Metadata>().notNull().default({}),
    /** The deposit address as the chain watcher sees it (lowercase hex for EVM and Tron, base58 for Solana). */
    watchKey: text("watch_key"),
    /** Sum of the (not orphaned) deposits to this payment on its chain, in USDT base units. */
    amountReceivedUnits: bigint("amount_received_units", { mode: "bigint" }).notNull().default(sql`0`),
    /** Refunds of this payment not failed or canceled (docs/REFUNDS.md); at most its credited deposits. */
    amountRefundedUnits: bigint("amount_refunded_units", { mode: "bigint" }).notNull().default(sql`0`),
    txHash: text("tx_hash"),
    /** The sender of the transfer that completed the amount (`tx_hash`), when the chain says who sent it. */
    payerAddress: text("payer_address"),
    /** Block of the transfer that completed the amount; confirmations are counted from it. */
    txBlockNumber: bigint("tx_block_number", { mode: "number" }),
    confirmations: integer("confirmations").notNull().default(0),
    paymentLinkId: text("payment_link_id"),
    /** The merchant's customer the payment was made for, when named (docs/API.md#customers). */
    customerId: text("customer_id").references(() => customers.id),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, precision: 3 }),
    /** When it became confirmed, expired or failed; late deposits are watched for a window after this. */
    closedAt: timestamp("closed_at", { withTimezone: true, precision: 3 }),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index("payments_owner_idx").on(t.merchantId, t.mode, t.createdAt, t.id),
    index("payments_customer_idx").on(t.customerId, t.createdAt, t.id).where(sql`${t.customerId} is not null`),
    // Search (lib/reports/search): every field a term reads is an index, so a term is one bitmap of index scans.
    index("payments_deposit_address_lower_idx").on(sql`lower(${t.depositAddress})`),
    index("payments_tx_hash_lower_idx").on(sql`lower(${t.txHash})`),
    index("payments_amount_idx").on(t.amountUnits),
    index("payments_metadata_idx").using("gin", t.metadata),
    index("payments_description_trgm_idx").using("gin", sql`${t.description} gin_trgm_ops`),
    index("payments_payer_address_lower_idx").on(sql`lower(${t.payerAddress})`),
    uniqueIndex("payments_deposit_address_key")
      .on(t.mode, t.depositAddress)
      .where(sql`${t.depositAddress} is not null`),
    index("payments_watch_key_idx").on(t.mode, t.watchKey).where(sql`${t.watchKey} is not null`),
    index("payments_in_flight_idx").on(t.mode, t.chain, t.status).where(sql`${t.status} in ('pending','confirming')`),
    index("payments_awaiting_expiry_idx").on(t.mode, t.chain, t.expiresAt).where(sql`${t.status} = 'awaiting_payment'`),
    // A payment link's payments (reuse per network and the per-link cap, lib/money-in/checkout/link-payments.ts).
    index("payments_payment_link_idx").on(t.paymentLinkId, t.chain).where(sql`${t.paymentLinkId} is not null`),
    check("payments_amount_positive", sql`${t.amountUnits} > 0`),
    check("payments_amount_refunded_nonnegative", sql`${t.amountRefundedUnits} >= 0`),
    check(
      "payments_status_check",
      sql`${t.status} in ('intent_created','awaiting_payment','pending','confirming','confirmed','expired','failed')`,
    ),
    check("payments_chain_check", sql`${t.chain} is null or ${t.chain} in ('eth','bnb','polygon','tron','solana')`),
    // An intent_created payment may have its chain but not yet its address (an empty Solana address pool),
    // and it keeps no address when it expires that way.
    check(
      "payments_address_with_chain",
      // Joined as is: drizzle-kit compares this text with the migrations' snapshot, whitespace included.
      sql.join([
        sql`(${t.chain} is null) = (${t.depositAddress} is null) or `,
        sql`(${t.status} in ('intent_created','expired') and ${t.depositAddress} is null)`,
      ]),
    ),
    index("payments_waiting_for_address_idx")
      .on(t.mode, t.chain, t.createdAt)
      .where(sql`${t.status} = 'intent_created'`),
  ],
);

/** Encrypted HD wallet seeds, one per mode that keeps its seed in the database (sandbox). */
export const walletSeeds = pgTable("wallet_seeds", {
  mode: text("mode").primaryKey(),
  encryptedMnemonic: text("encrypted_mnemonic").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * Deposit addresses derived ahead, one pool per (mode, key family), by the worker (which holds the seed or
 * the account xpub), so the web process derives nothing and holds no seed: a payment takes the lowest free
 * address with one statement (lib/chains/wallets/deposit-address-pool.ts). `purpose` keeps two ranges apart:
 * `payment` addresses (indexes from 0, single-use) and `deposit` addresses (indexes from 2^30, a customer's
 * permanent address). `allocated_at` is set with `payment_id` or `deposit_address_id` when one takes the address.
 */
export const depositAddressPool = pgTable(
  "deposit_address_pool",
  {
    mode: text("mode", { enum: MODES }).notNull(),
    family: text("family", { enum: CHAIN_FAMILIES }).notNull(),
    derivationIndex: bigint("derivation_index", { mode: "number" }).notNull(),
    address: text("address").notNull(),
    purpose: text("purpose", { enum: POOL_PURPOSES }).notNull().default("payment"),
    paymentId: text("payment_id"),
    depositAddressId: text("deposit_address_id"),
    allocatedAt: timestamp("allocated_at", { withTimezone: true, precision: 3 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mode, t.family, t.derivationIndex] }),
    uniqueIndex("deposit_address_pool_address_key").on(t.mode, t.family, t.address),
    uniqueIndex("deposit_address_pool_payment_key").on(t.paymentId).where(sql`${t.paymentId} is not null`),
    uniqueIndex("deposit_address_pool_deposit_address_key")
      .on(t.depositAddressId)
      .where(sql`${t.depositAddressId} is not null`),
    // The free addresses in claiming order. Keyed on `derivation_index + 0`, which the primary key cannot
    // give: with the plain column the planner could take the key instead (a generic plan whose statistics
    // saw the pool all free) and read past every address ever taken on each claim.
    index("deposit_address_pool_free_order")
      .on(t.mode, t.family, t.purpose, sql`(${t.derivationIndex} + 0)`)
      .where(sql`${t.allocatedAt} is null`),
    check(
      "deposit_address_pool_allocation",
      sql`(${t.allocatedAt} is null) = (${t.paymentId} is null and ${t.depositAddressId} is null)`,
    ),
    check(
      "deposit_address_pool_purpose",
      sql`(${t.purpose} = 'payment' or ${t.paymentId} is null)
        and (${t.purpose} = 'deposit' or ${t.depositAddressId} is null)`,
    ),
    check("deposit_address_pool_purpose_check", sql`${t.purpose} in ('payment','deposit')`),
  ],
);

/**
 * The next derivation index of each (mode, family): a row, not a sequence, so a refill that rolls back gives
 * its indexes back and the derived addresses stay gap-free. Its row lock serializes a pool's refills.
 */
export const depositIndexCounters = pgTable(
  "deposit_index_counters",
  {
    mode: text("mode", { enum: MODES }).notNull(),
    family: text("family", { enum: CHAIN_FAMILIES }).notNull(),
    purpose: text("purpose", { enum: POOL_PURPOSES }).notNull().default("payment"),
    nextIndex: bigint("next_index", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.mode, t.family, t.purpose] }),
    check("deposit_index_counters_nonnegative", sql`${t.nextIndex} >= 0`),
  ],
);
