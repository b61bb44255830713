import { MODES } from "@/lib/kernel/mode";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
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
import type {
  CandidateStatus,
  OutboundAsset,
  OutboundOptions,
  OutboundPurpose,
  OutboundSigner,
  OutboundStatus,
} from "@/lib/money-out/outbound/outbound-types";
import type { CostSubject } from "@/lib/money-out/costs/cost-types";

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
const units = (name: string) => numeric(name, { precision: 78, scale: 0, mode: "bigint" });

/** The service's own signer addresses per mode, chain and role (written by the process that holds the keys). */
export const walletRoles = pgTable(
  "wallet_roles",
  {
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").$type<Chain>().notNull(),
    role: text("role").notNull(),
    address: text("address").notNull(),
    /** The derivation path, or null for a key from the operator's role key file. */
    path: text("path"),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mode, t.chain, t.role] })],
);

/**
 * The next nonce of each EVM signer, allocated here in the transaction that stores the signed bytes
 * (never read from eth_getTransactionCount alone; lib/money-out/outbound/allocate-nonce.ts).
 */
export const signerNonces = pgTable(
  "signer_nonces",
  {
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").$type<Chain>().notNull(),
    address: text("address").notNull(),
    nextNonce: bigint("next_nonce", { mode: "bigint" }).notNull(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.mode, t.chain, t.address] }),
    check("signer_nonces_nonnegative", sql`${t.nextNonce} >= 0`),
  ],
);

/** One outbound transfer the service means to make (an intent), whatever candidates it takes to land it. */
export const outboundTransactions = pgTable(
  "outbound_transactions",
  {
    id: text("id").primaryKey(),
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").$type<Chain>().notNull(),
    purpose: text("purpose").$type<OutboundPurpose>().notNull(),
    status: text("status").$type<OutboundStatus>().notNull(),
    /** Which key signs: a role, or a deposit address by its derivation index. */
    signer: jsonb("signer").$type<OutboundSigner>().notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    asset: text("asset").$type<OutboundAsset>().notNull(),
    /** In the asset's on-chain base units (wei, sun, lamports, or the token's). */
    rawAmount: units("raw_amount").notNull(),
    /** What asked for it (a payout, a deposit address being swept …), for the purpose's own bookkeeping. */
    causeId: text("cause_id"),
    /** Family-specific choices, e.g. `{"closeAccount": true}`: a Solana sweep also closes the token account. */
    options: jsonb("options").$type<OutboundOptions>().notNull().default({}),
    /** Not signed before this intent is confirmed (a sweep waits for its gas top-up). */
    after: text("after_id"),
    nonce: bigint("nonce", { mode: "bigint" }),
    /** Re-signs after a candidate provably expired (Tron expiration, Solana blockhash, EVM nonce taken). */
    resigns: integer("resigns").notNull().default(0),
    txHash: text("tx_hash"),
    blockNumber: bigint("block_number", { mode: "number" }),
    blockHash: text("block_hash"),
    confirmations: integer("confirmations"),
    /** Fee paid by the landed candidate, in native base units (wei, sun, lamports). */
    feeNative: units("fee_native"),
    /**
     * Solana: lamports the landed candidate put into token accounts it created (the fee payer's), and took
     * back from token accounts it closed (to `options.rentTo`); read from its balances, for the custody books.
     */
    rentPaidNative: units("rent_paid_native"),
    rentReturnedNative: units("rent_returned_native"),
    /**
     * What the landed candidate used, as its chain reports it (decimal strings): EVM `gas_used`, `gas_price`; Tron
     * `energy_total`, `energy_staked`, `energy_burnt_sun`, `bandwidth_staked`, `bandwidth_burnt_sun`; Solana
     * `compute_units`, `compute_unit_limit`, `compute_unit_price` (micro-lamports). Set when it confirms or reverts,
     * with the fee the books take.
     */
    feeUsage: jsonb("fee_usage").$type<Record<string, string>>(),
    failure: text("failure"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    confirmedAt: ts("confirmed_at"),
  },
  (t) => [
    index("outbound_open_idx")
      .on(t.mode, t.chain, t.status)
      .where(sql`${t.status} not in ('confirmed','reverted','expired')`),
    index("outbound_cause_idx").on(t.causeId),
    uniqueIndex("outbound_signer_nonce_idx").on(t.mode, t.chain, t.fromAddress, t.nonce),
    // One open sweep per deposit address: two planners racing cannot both sweep it.
    uniqueIndex("outbound_one_open_sweep")
      .on(t.mode, t.chain, t.fromAddress)
      .where(sql`${t.purpose} = 'sweep' and ${t.status} not in ('confirmed','reverted','expired')`),
    // One deployment of each contract (its CREATE2 address in cause_id) that is live or done: it happens once.
    uniqueIndex("outbound_one_deploy")
      .on(t.mode, t.chain, t.causeId)
      .where(sql`${t.purpose} = 'deploy' and ${t.status} not in ('reverted','expired')`),
    // One open setup call of each kind per subject (the treasury's approval of a contract, its undelegation).
    uniqueIndex("outbound_one_open_setup")
      .on(t.mode, t.chain, t.purpose, t.causeId)
      .where(sql`${t.purpose} in ('approve','undelegate') and ${t.status} not in ('confirmed','reverted','expired')`),
    check("outbound_amount_nonnegative", sql`${t.rawAmount} >= 0`),
    check(
      "outbound_status_check",
      sql`${t.status} in ('intent','signed','broadcast','mined','confirmed','reverted','expired')`,
    ),
    check(
      "outbound_purpose_check",
      // Joined as is: drizzle-kit compares this text with the migrations' snapshot, whitespace included.
      sql.join([
        sql`${t.purpose} in ('sweep','sweep_batch','gas_topup','payout','payout_batch','refund','cancel',`,
        sql`'account_close','deploy','approve','undelegate','energy_delegate','energy_reclaim')`,
      ]),
    ),
  ],
);

/**
 * The deposit addresses a batched sweep (`sweep_batch`, EIP-7702) empties, each with what it moves. `open`
 * follows the intent (false once it is confirmed, reverted or expired, in the same transaction), so a partial
 * unique index allows one open batch per address, as `outbound_one_open_sweep` does for single sweeps.
 */
export const sweepBatchMembers = pgTable(
  "sweep_batch_members",
  {
    outboundId: text("outbound_id")
      .notNull()
      .references(() => outboundTransactions.id),
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").$type<Chain>().notNull(),
    address: text("address").notNull(),
    derivationIndex: integer("derivation_index").notNull(),
    /** The token's base units it moves to the treasury. */
    rawAmount: units("raw_amount").notNull(),
    open: boolean("open").notNull().default(true),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.outboundId, t.address] }),
    uniqueIndex("sweep_batch_one_open_member").on(t.mode, t.chain, t.address).where(sql`${t.open}`),
    index("sweep_batch_members_address_idx").on(t.mode, t.chain, t.address),
    check("sweep_batch_members_amount_positive", sql`${t.rawAmount} > 0`),
  ],
);

/**
 * Every payout a `payout_batch` intent carried (lib/money-out/payouts/payout-batch.ts), kept after the batch
 * ends: a payout whose last batch reverted is sent alone next, and its detail page lists the batch.
 */
export const payoutBatchMembers = pgTable(
  "payout_batch_members",
  {
    outboundId: text("outbound_id")
      .notNull()
      .references(() => outboundTransactions.id),
    payoutId: text("payout_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.outboundId, t.payoutId] }), index("payout_batch_members_payout_idx").on(t.payoutId)],
);

/** Every signed transaction of an intent: the first, fee replacements and re-signs; at most one lands. */
export const outboundCandidates = pgTable(
  "outbound_candidates",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    outboundId: text("outbound_id")
      .notNull()
      .references(() => outboundTransactions.id),
    txHash: text("tx_hash").notNull(),
    status: text("status").$type<CandidateStatus>().notNull(),
    /** The signed transaction as the node takes it (EVM 0x-hex, Tron JSON, Solana base64). */
    signedTx: text("signed_tx").notNull(),
    nonce: bigint("nonce", { mode: "bigint" }),
    maxFeePerGas: units("max_fee_per_gas"),
    maxPriorityFeePerGas: units("max_priority_fee_per_gas"),
    /** Tron: expiration (ms since epoch); Solana: last valid block height. Past it, the candidate cannot land. */
    validUntil: bigint("valid_until", { mode: "bigint" }),
    /** The chain head when first broadcast: replacement waits a number of blocks from here. */
    broadcastHead: bigint("broadcast_head", { mode: "number" }),
    blockNumber: bigint("block_number", { mode: "number" }),
    blockHash: text("block_hash"),
    feeNative: units("fee_native"),
    createdAt: ts("created_at").notNull().defaultNow(),
    broadcastAt: ts("broadcast_at"),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("outbound_candidates_hash_idx").on(t.txHash),
    index("outbound_candidates_outbound_idx").on(t.outboundId),
    check(
      "outbound_candidates_status_check",
      sql`${t.status} in ('signed','broadcast','mined','confirmed','replaced','reverted','expired')`,
    ),
  ],
);

/**
 * The fee of each confirmed or reverted intent, attributed (docs/CUSTODY.md, "What each payment and payout
 * costs"): a payout's or refund's to it; a sweep's and what prepared it (top-up, energy lent and reclaimed) to
 * the payments whose deposits it collected, shared by their amounts (a batch by its members' amounts), or on a
 * customer's deposit address the deposits it collected (each charged once per purpose); the rest
 * (contract deployments) to the installation. The shares of an intent sum to its fee exactly.
 */
export const outboundCosts = pgTable(
  "outbound_costs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    outboundId: text("outbound_id")
      .notNull()
      .references(() => outboundTransactions.id),
    mode: text("mode", { enum: MODES }).notNull(),
    chain: text("chain").$type<Chain>().notNull(),
    purpose: text("purpose").$type<OutboundPurpose>().notNull(),
    subjectType: text("subject_type").$type<CostSubject>().notNull(),
    /** The payment, payout or refund; null for the installation's own. */
    subjectId: text("subject_id"),
    merchantId: text("merchant_id"),
    /** In native base units (wei, sun, lamports). */
    feeNative: units("fee_native").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("outbound_costs_subject_idx").on(t.subjectType, t.subjectId),
    index("outbound_costs_time_idx").on(t.mode, t.createdAt),
    index("outbound_costs_outbound_idx").on(t.outboundId),
    check("outbound_costs_fee_positive", sql`${t.feeNative} > 0`),
    check(
      "outbound_costs_subject_check",
      sql`${t.subjectType} in ('payment','deposit','payout','refund','installation')`,
    ),
  ],
);
