import type { WalletRole } from "@/lib/chains/wallets/wallet-roles";

export { OUTBOUND_PURPOSES, type OutboundPurpose } from "@/lib/kernel/outbound-purposes";

/**
 * USDT (the chain's token contract or mint), the chain's native coin (gas top-ups), or staked native coin whose
 * resources are lent (Tron `energy_delegate` / `energy_reclaim`: the amount is the stake in sun; no coin moves).
 */
export type OutboundAsset = "token" | "native" | "stake";

/** Per-intent choices a family's driver reads. */
export interface OutboundOptions {
  /** Solana: close the signer's token account in the same transaction (its rent goes to `rentTo`). */
  closeAccount?: boolean;
  rentTo?: string;
  /** Tron: the most TRX (sun) the transaction may burn for energy and bandwidth. */
  feeLimitSun?: string;
  /**
   * EVM: the gas and fees to sign the first candidate with (a sweep from a deposit address holds exactly the
   * gas its top-up gave it). Decimal strings.
   */
  evmGas?: { limit: string; maxFeePerGas: string; maxPriorityFeePerGas: string };
  /** EVM: the call data sent to `to_address` (a contract's creation through the CREATE2 deployer). */
  evmData?: string;
  /**
   * EVM `sweep_batch`: the sweeper contract (EIP-7702 delegate of every member) whose `sweepMany` the sweeper
   * calls, and the deposit addresses it empties into the treasury, each by its derivation index (the keys that
   * sign the members' authorizations are derived from it when signing; none is stored) and raw amount.
   */
  batch?: { contract: string; members: BatchMember[] };
  /**
   * EVM `payout_batch`: payouts the treasury sends in one transaction. Two or more call the PayoutBatcher
   * `contract`'s `payMany`, which spends the treasury's allowance (a batch of the first, delegated design calls it
   * on the treasury itself); one alone is a plain transfer.
   */
  payoutBatch?: { contract: string; members: PayoutBatchMember[] };
  /**
   * Members may still be added (a `payout_batch` being filled): the leader clears it in a transaction of its
   * own before it screens and signs the intent, so what it screens is what it signs.
   */
  appendable?: boolean;
  /**
   * Sign only once this intent has ended, whatever its outcome (an energy reclaim after the transfer it lent energy
   * to: confirmed, reverted or given up). `after` by contrast needs its intent confirmed.
   */
  settledAfter?: string;
}

export interface BatchMember {
  address: string;
  index: number;
  /** Token base units, a decimal string. */
  raw: string;
}

export interface PayoutBatchMember {
  payoutId: string;
  /** The payout's destination. */
  address: string;
  /** Token base units, a decimal string. */
  raw: string;
}

/** The key that signs: one of the service's roles, or a deposit address by its derivation index. */
export type OutboundSigner = { role: WalletRole } | { role: "deposit"; index: number };

/**
 * An intent's status: `intent` (recorded, not signed) → `signed` (bytes committed) → `broadcast` (a node took
 * them) → `mined` (in a block) → `confirmed` (at the chain's depth), or `reverted` (mined, failed, at depth) or
 * `expired` (given up after provable expiry and the allowed re-signs).
 */
export const OUTBOUND_STATUSES = [
  "intent",
  "signed",
  "broadcast",
  "mined",
  "confirmed",
  "reverted",
  "expired",
] as const;
export type OutboundStatus = (typeof OUTBOUND_STATUSES)[number];

/**
 * A candidate (one signed transaction of an intent): `signed` → `broadcast` → `mined` → `confirmed`; or
 * `replaced` (another candidate of its intent landed, or a fee bump superseded it and the intent confirmed),
 * `reverted` (it landed and failed), `expired` (it provably cannot land any more).
 */
export const CANDIDATE_STATUSES = [
  "signed",
  "broadcast",
  "mined",
  "confirmed",
  "replaced",
  "reverted",
  "expired",
] as const;
export type CandidateStatus = (typeof CANDIDATE_STATUSES)[number];
