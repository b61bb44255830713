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
import { merchants } from "./merchants";
import { payments } from "./payments";
import type { RefundDestination, RefundReason, RefundStatus } from "@/lib/money-out/refunds/schemas";

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * Refunds: USDT a payment received, sent back from the treasury (docs/REFUNDS.md). The amount left `available`
 * for `refunds_in_flight` when the refund was created, and the payment's `amount_refunded_units` counts it
 * until it fails or is canceled. `destination`: `address` (given by the merchant), `sender` (the address the
 * payment came from), `claim` (the payer gives it on the claim page: `to_address` is null until then). The claim
 * token is stored as its SHA-256 (`claim_token_hash`, to find the refund) and encrypted (`claim_token_sealed`,
 * so a refunder can read `claim_url` again); both are erased once the claim is used or the refund ends. Only
 * principals that may create refunds ever see the link: event bodies carry `claim_pending` instead.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: MODES }).notNull(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id),
    chain: text("chain").$type<Chain>().notNull(),
    status: text("status").$type<RefundStatus>().notNull(),
    destination: text("destination").$type<RefundDestination>().notNull(),
    toAddress: text("to_address"),
    amountUnits: bigint("amount_units", { mode: "bigint" }).notNull(),
    reason: text("reason").$type<RefundReason>(),
    metadata: jsonb("metadata").$type<Metadata>().notNull().default({}),
    claimTokenHash: text("claim_token_hash"),
    claimTokenSealed: text("claim_token_sealed"),
    /** The payer must also type a one-time code the merchant sent by another channel (docs/REFUNDS.md). */
    claimCodeRequired: boolean("claim_code_required").notNull().default(false),
    /** The code's HMAC under the master key, bound to the refund; erased with the token. */
    claimCodeHash: text("claim_code_hash"),
    /** Wrong codes typed for the current link; at 5 the link is locked until it is regenerated. */
    claimCodeFailures: integer("claim_code_failures").notNull().default(0),
    /** The outbound transaction that pays it, once queued. */
    outboundId: text("outbound_id"),
    txHash: text("tx_hash"),
    confirmations: integer("confirmations"),
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    createdByUserId: text("created_by_user_id"),
    createdByKeyId: text("created_by_key_id"),
    /** Opened by the merchant's refund policy (no user or key asked for it). */
    createdByPolicy: boolean("created_by_policy").notNull().default(false),
    createdAt: ts("created_at").notNull(),
    /** The claim window: a `requires_action` refund is canceled after it. */
    expiresAt: ts("expires_at"),
    succeededAt: ts("succeeded_at"),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("refunds_owner_idx").on(t.merchantId, t.mode, t.createdAt, t.id),
    // Search (lib/reports/search): every field a term reads is an index, so a term is one bitmap of index scans.
    index("refunds_to_address_lower_idx").on(sql`lower(${t.toAddress})`),
    index("refunds_tx_hash_lower_idx").on(sql`lower(${t.txHash})`),
    index("refunds_amount_idx").on(t.amountUnits),
    index("refunds_metadata_idx").using("gin", t.metadata),
    index("refunds_reason_trgm_idx").using("gin", sql`${t.reason} gin_trgm_ops`),
    index("refunds_owner_status_idx").on(t.merchantId, t.mode, t.status, t.createdAt, t.id),
    index("refunds_payment_idx").on(t.paymentId, t.createdAt, t.id),
    uniqueIndex("refunds_claim_token_key").on(t.claimTokenHash).where(sql`${t.claimTokenHash} is not null`),
    index("refunds_claim_expiry_idx").on(t.expiresAt).where(sql`${t.status} = 'requires_action'`),
    // The metrics' reads (lib/money-out/refunds/count-refunds.ts): refunds not yet final, and those ended lately.
    index("refunds_open_idx")
      .on(t.mode, t.chain, t.status, t.createdAt)
      .where(sql`${t.status} in ('requires_action','pending','processing')`),
    index("refunds_updated_idx").on(t.updatedAt),
    check("refunds_amount_positive", sql`${t.amountUnits} > 0`),
    check(
      "refunds_status_check",
      sql`${t.status} in ('requires_action','pending','processing','succeeded','failed','canceled')`,
    ),
    check("refunds_destination_check", sql`${t.destination} in ('address','sender','claim')`),
    check("refunds_chain_check", sql`${t.chain} in ('eth','bnb','polygon','tron','solana')`),
    // Only a claim waits for its address, and only before the payer gave it.
    check(
      "refunds_address_known",
      sql`${t.toAddress} is not null or (${t.destination} = 'claim' and ${t.status} in ('requires_action','canceled'))`,
    ),
  ],
);

/**
 * A merchant's refund policy per mode (docs/REFUNDS.md#policy): open a claim refund by itself for what a payment
 * received above its amount (when above `overpaid_above_units`), and for payments that arrived after expiry.
 */
export const refundPolicies = pgTable(
  "refund_policies",
  {
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    mode: text("mode", { enum: MODES }).notNull(),
    /** Overpayments above this (USDT base units) get a claim refund of the excess; null: off. */
    overpaidAboveUnits: bigint("overpaid_above_units", { mode: "bigint" }),
    /** Payments that arrived after the payment expired get a claim refund of all of it. */
    refundLatePayments: boolean("refund_late_payments").notNull().default(false),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.mode] }),
    check(
      "refund_policies_threshold_nonnegative",
      sql`${t.overpaidAboveUnits} is null or ${t.overpaidAboveUnits} >= 0`,
    ),
  ],
);
