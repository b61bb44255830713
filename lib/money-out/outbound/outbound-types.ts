export { OUTBOUND_PURPOSES, type OutboundPurpose } from "@/lib/kernel/outbound-purposes";
export type {
  BatchMember,
  OutboundAsset,
  OutboundOptions,
  OutboundSigner,
  PayoutBatchMember,
} from "@/lib/chains/outbound-intent";

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
