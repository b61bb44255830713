import type { EventType } from "@/lib/notify/events/event-types";
import { defineLifecycle } from "@/lib/kernel/define-lifecycle";
import { TRANSFER_FAILURE_CODES } from "@/lib/money-out/transfers/transfer-failures";
import type { PayoutStatus } from "./schemas";

/**
 * Every status change a payout can make (docs/PAYOUTS.md). Creation debits `available` into
 * `payouts_in_flight` (lib/money-out/payouts/create-payout.ts); a payout that ends without paying gives it back.
 */
export type PayoutTrigger =
  /** The review policy holds it for an operator (amount above the limit, or a destination never paid). */
  | "held_for_review"
  /** An operator approved it: it goes on as if it had never been held. */
  | "approved"
  /** An operator rejected it (failure_code `rejected`). */
  | "rejected"
  /** Its destination is refused (sanctioned, deny-listed, frozen by the issuer), at creation or just before signing. */
  | "denied"
  /** Its transfer's signed bytes are committed: `tx_hash` is set. */
  | "signed"
  /** The transfer reached the chain's confirmation depth. */
  | "settled"
  /** The transfer provably failed (reverted and confirmed, or expired after the allowed re-signs). */
  | "transfer_failed"
  /**
   * The batch it was sent in reverted at depth (all or nothing: nothing was paid): it is sent again, alone
   * (docs/PAYOUTS.md, "Batched payouts").
   */
  | "batch_reverted";

const REFUND = { from: "payouts_in_flight", to: "available", of: "the payout's amount" } as const;

export const PAYOUT_LIFECYCLE = defineLifecycle<PayoutStatus, PayoutTrigger, EventType | null>({
  resource: "payout",
  statuses: ["pending", "review_required", "processing", "confirmed", "failed", "blocked"],
  terminal: ["confirmed", "failed", "blocked"],
  transitions: [
    { from: "pending", trigger: "held_for_review", to: "review_required", event: null, ledger: null },
    { from: "review_required", trigger: "approved", to: "pending", event: null, ledger: null },
    { from: "review_required", trigger: "rejected", to: "failed", event: "payout.failed", ledger: REFUND },
    { from: "review_required", trigger: "denied", to: "blocked", event: "payout.blocked", ledger: REFUND },
    { from: "pending", trigger: "denied", to: "blocked", event: "payout.blocked", ledger: REFUND },
    { from: "pending", trigger: "signed", to: "processing", event: null, ledger: null },
    {
      from: "processing",
      trigger: "settled",
      to: "confirmed",
      event: "payout.confirmed",
      ledger: { from: "payouts_in_flight", to: "chain_withdrawals", of: "the payout's amount" },
    },
    { from: "processing", trigger: "transfer_failed", to: "failed", event: "payout.failed", ledger: REFUND },
    { from: "processing", trigger: "batch_reverted", to: "pending", event: null, ledger: null },
  ],
});

/** Failure codes on a failed or blocked payout (docs/PAYOUTS.md). */
export const PAYOUT_FAILURE_CODES = {
  rejected: "An operator rejected the payout under review.",
  ...TRANSFER_FAILURE_CODES,
} as const;
export type PayoutFailureCode = keyof typeof PAYOUT_FAILURE_CODES;
