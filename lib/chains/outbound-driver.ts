import type { ChainConfig } from "@/lib/chains/chain-config";
import type { SigningKey } from "@/lib/chains/wallets/wallet-roles";
import type { OutboundCandidate, OutboundIntent, SignedCandidate } from "./outbound-intent";

export type { SignedCandidate } from "./outbound-intent";

/**
 * The keys of an intent: its signer (the address the funds or coins leave), and on Solana the fee payer when
 * that is another of the service's signers (the sweeper pays for sweeps: deposit owners never hold SOL).
 * An EVM batched sweep also has its members' keys, in `options.batch.members` order: each member not yet
 * delegated to the sweeper contract signs its EIP-7702 authorization with it.
 */
export interface IntentKeys {
  signer: SigningKey;
  feePayer: SigningKey | null;
  members?: SigningKey[];
}

/** Where a candidate is on chain. */
export type Lookup =
  | {
      state: "landed";
      blockNumber: number;
      blockHash: string;
      success: boolean;
      feeNative: bigint;
      /** Solana: lamports put into token accounts it created, and taken back from those it closed. */
      rent?: { paid: bigint; returned: bigint };
      /** What it used, as the chain reports it (decimal strings; keys per family: db/schema/outbound.ts `feeUsage`). */
      usage?: Record<string, string>;
    }
  | { state: "pending" }
  | { state: "unknown" };

/** What broadcasting said: `sent` covers "already known", a duplicate and a nonce already used by it. */
export type BroadcastOutcome = { sent: true } | { sent: false; reason: string };

/**
 * One chain family's part of the outbound engine (lib/money-out/outbound/track-outbound.ts). The engine owns the
 * journal and the order of things; a driver only talks to the chain and signs:
 * - `prepare` reads what a new candidate needs (fees, a recent blockhash or block; EVM batched sweeps: which
 *   members still need an authorization, signed here) before any database transaction; it returns null when
 *   no better replacement than `previous` can be made (fee cap reached), or when a first candidate must wait
 *   (EVM: a transaction carrying the treasury's own authorization while the treasury has transactions in
 *   flight; a payout batch before its contract's code and the treasury's allowance are on chain).
 *   A driver with `maxNativeCost` gets `reservedNative`: what the signer's other candidates on their way may
 *   still take of its native coin;
 * - `sign` is local and fast, run inside the transaction that allocates the nonce and stores the bytes;
 * - `cannotLand` tells whether a candidate provably can no longer be included (its nonce taken at depth,
 *   its expiration or blockhash passed): only then is the intent signed anew.
 */
export interface OutboundDriver<Prepared = unknown> {
  readonly usesNonces: boolean;
  prepare(
    intent: OutboundIntent,
    previous: OutboundCandidate | null,
    keys: IntentKeys,
    reservedNative?: bigint,
  ): Promise<Prepared | null>;
  /**
   * Tron: the most native coin a signed candidate may take from its signer (fee limit, value), so the engine can
   * reserve it until the candidate lands. Chains whose nodes refuse an unaffordable transaction leave it out.
   */
  maxNativeCost?(candidate: OutboundCandidate): bigint;
  sign(intent: OutboundIntent, keys: IntentKeys, prepared: Prepared, nonce: bigint | null): Promise<SignedCandidate>;
  broadcast(candidate: OutboundCandidate): Promise<BroadcastOutcome>;
  lookup(candidate: OutboundCandidate): Promise<Lookup>;
  cannotLand(intent: OutboundIntent, candidate: OutboundCandidate, confirmedHead: number): Promise<boolean>;
  /**
   * EVM: how many of the signer's nonces the candidate uses, when more than one (a treasury's payout batch that
   * carries its own EIP-7702 authorization uses the next one too): allocated together, so no transaction of the
   * signer's is given the second.
   */
  noncesUsed?(prepared: Prepared): number;
  /** EVM: the signer's transaction count at a block (`latest` or a number). */
  chainNonce?(address: string, block: number | "latest"): Promise<bigint>;
}

export type DriverFactory = (config: ChainConfig) => OutboundDriver;
