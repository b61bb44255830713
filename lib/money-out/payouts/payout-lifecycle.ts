import type { EventType } from "@/lib/notify/events/event-types";
import { defineLifecycle } from "@/lib/kernel/define-lifecycle";
import { TRANSFER_FAILURE_CODES } from "@/lib/money-out/transfers/transfer-failures";
import { giveBack, type TransferTrigger, transferTransitions } from "@/lib/money-out/transfers/transfer-kind";
import type { PayoutStatus } from "./schemas";

/**
 * Every status change a payout can make (docs/PAYOUTS.md). Creation debits `available` into
 * `payouts_in_flight` (lib/money-out/payouts/create-payout.ts); a payout that ends without paying gives it back.
 */
export type PayoutTrigger =
  | TransferTrigger
  /** The review policy holds it for an operator (amount above the limit, or a destination never paid). */
  | "held_for_review"
  /** An operator approved it: it goes on as if it had never been held. */
  | "approved"
  /** An operator rejected it (failure_code `rejected`). */
  | "rejected";

const REFUND = giveBack("payout");

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
    ...transferTransitions("payout", "confirmed"),
    { from: "processing", trigger: "batch_reverted", to: "pending", event: null, ledger: null },
  ],
});

/** Failure codes on a failed or blocked payout (docs/PAYOUTS.md). */
export const PAYOUT_FAILURE_CODES = {
  rejected: "An operator rejected the payout under review.",
  ...TRANSFER_FAILURE_CODES,
} as const;
export type PayoutFailureCode = keyof typeof PAYOUT_FAILURE_CODES;
