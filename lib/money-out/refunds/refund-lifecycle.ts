import type { EventType } from "@/lib/notify/events/event-types";
import { defineLifecycle } from "@/lib/kernel/define-lifecycle";
import { TRANSFER_FAILURE_CODES } from "@/lib/money-out/transfers/transfer-failures";
import { giveBack, type TransferTrigger, transferTransitions } from "@/lib/money-out/transfers/transfer-kind";
import type { RefundStatus } from "./schemas";

/**
 * Every status change a refund can make (docs/REFUNDS.md). Creation debits `available` into
 * `refunds_in_flight` (lib/money-out/refunds/create-refund.ts); a refund that ends without paying gives it back.
 */
export type RefundTrigger =
  | TransferTrigger
  /** The payer gave the address on the claim page. */
  | "claimed"
  /** The merchant canceled it before its transfer was signed. */
  | "canceled"
  /** The claim window passed without an address. */
  | "claim_expired";

const GIVE_BACK = giveBack("refund");

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
    ...transferTransitions("refund", "succeeded"),
  ],
});

/** Failure codes of a failed refund, and why a canceled one was (docs/REFUNDS.md). */
export const REFUND_FAILURE_CODES = {
  ...TRANSFER_FAILURE_CODES,
  canceled_by_merchant: "The merchant canceled the refund before it was sent.",
  claim_expired: "The payer did not give an address before the claim window closed.",
} as const;
export type RefundFailureCode = keyof typeof REFUND_FAILURE_CODES;
