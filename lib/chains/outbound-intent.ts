import type { Chain } from "./chains";
import type { WalletRole } from "./wallets/wallet-roles";
import type { Mode } from "@/lib/kernel/mode";
import type { OutboundPurpose } from "@/lib/kernel/outbound-purposes";

// An outbound transaction as the chain families' drivers read it (outbound-driver.ts): the port's own types.
// lib/money-out/outbound keeps the journal; its rows (outbound-row.ts) are these and more.

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

/** An intent: what a driver signs (money-out's `OutboundRow` is one, with the engine's own columns). */
export interface OutboundIntent {
  id: string;
  mode: Mode;
  chain: Chain;
  purpose: OutboundPurpose;
  signer: OutboundSigner;
  fromAddress: string;
  toAddress: string;
  asset: OutboundAsset;
  /** In the asset's on-chain base units (wei, sun, lamports, or the token's). */
  rawAmount: bigint;
  options: OutboundOptions;
  nonce: bigint | null;
}

/** A candidate ready to store: the signed bytes, their hash, and what they commit to. */
export interface SignedCandidate {
  txHash: string;
  signedTx: string;
  nonce: bigint | null;
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
  validUntil: bigint | null;
}

/** One signed transaction of an intent, as stored (money-out's `CandidateRow` is one). */
export interface OutboundCandidate extends SignedCandidate {
  id: number;
  outboundId: string;
  broadcastHead: number | null;
  blockNumber: number | null;
  blockHash: string | null;
}

/**
 * The gas a sweep from a deposit address needs: the native coin to top the address up with first (0 when it
 * holds enough or never pays its own fees), and the options to sign the sweep with.
 */
export interface SweepGas {
  topupRaw: bigint;
  options: OutboundOptions;
  /** Tron's `stake` strategy: the treasury's stake (sun) whose energy is lent to the deposit address for the sweep,
   *  then reclaimed; absent when the sweep pays its own way. */
  delegateSun?: bigint;
}
