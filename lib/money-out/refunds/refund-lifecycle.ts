import type { EventType } from "@/lib/notify/events/event-types";
import { defineLifecycle } from "@/lib/kernel/define-lifecycle";
import { TRANSFER_FAILURE_CODES } from "@/lib/money-out/transfers/transfer-failures";
import type { RefundStatus } from "./schemas";

/**
 * Every status change a refund can make (docs/REFUNDS.md). Creation debits `available` into
 * `refunds_in_flight` (lib/money-out/refunds/create-refund.ts); a refund that ends without paying gives it back.
 */
export type RefundTrigger =
  /** The payer gave the address on the claim page. */
  | "claimed"
  /** Its transfer's signed bytes are committed: `tx_hash` is set. */
  | "signed"
  /** The transfer reached the chain's confirmation depth. */
  | "settled"
  /** The destination is on the deny-list or the sanctions oracle lists it (before signing). */
  | "denied"
  /** The transfer provably failed (reverted at depth, or expired after the allowed re-signs). */
  | "transfer_failed"
  /** The merchant canceled it before its transfer was signed. */
  | "canceled"
  /** The claim window passed without an address. */
  | "claim_expired";

const GIVE_BACK = { from: "refunds_in_flight", to: "available", of: "the refund's amount" } as const;

export const REFUND_LIFECYCLE = defineLifecycle<RefundStatus, RefundTrigger, EventType | null>({
  resource: "refund",
  statuses: ["requires_action", "pending", "processing", "succeeded", "failed", "canceled"],
  terminal: ["succeeded", "failed", "canceled"],
  transitions: [
    { from: "requires_action", trigger: "claimed", to: "pending", event: null, ledger: null },
    { from: "requires_action", trigger: "canceled", to: "canceled", event: "refund.canceled", ledger: GIVE_BACK },
    { from: "requires_action", trigger: "claim_expired", to: "canceled", event: "refund.canceled", ledger: GIVE_BACK },
    { from: "pending", trigger: "canceled", to: "canceled", event: "refund.canceled", ledger: GIVE_BACK },
    { from: "pending", trigger: "denied", to: "failed", event: "refund.failed", ledger: GIVE_BACK },
    { from: "pending", trigger: "signed", to: "processing", event: null, ledger: null },
    {
      from: "processing",
      trigger: "settled",
      to: "succeeded",
      event: "refund.succeeded",
      ledger: { from: "refunds_in_flight", to: "chain_withdrawals", of: "the refund's amount" },
    },
    { from: "processing", trigger: "transfer_failed", to: "failed", event: "refund.failed", ledger: GIVE_BACK },
  ],
});

/** Failure codes of a failed refund, and why a canceled one was (docs/REFUNDS.md). */
export const REFUND_FAILURE_CODES = {
  ...TRANSFER_FAILURE_CODES,
  canceled_by_merchant: "The merchant canceled the refund before it was sent.",
  claim_expired: "The payer did not give an address before the claim window closed.",
} as const;
export type RefundFailureCode = keyof typeof REFUND_FAILURE_CODES;
