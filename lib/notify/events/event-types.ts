/** The event types: what payments, deposits, payouts and refunds emit, and what endpoints may filter on. */
export const EVENT_TYPES = [
  "payment.awaiting_payment",
  "payment.pending",
  "payment.confirming",
  "payment.confirmed",
  "payment.expired",
  "payment.failed",
  "deposit.pending",
  "deposit.confirmed",
  "deposit.reversed",
  "payout.confirmed",
  "payout.failed",
  "payout.blocked",
  "refund.created",
  "refund.requires_action",
  "refund.succeeded",
  "refund.failed",
  "refund.canceled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
