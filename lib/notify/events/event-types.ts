/** The nine event types (the events a payment or payout emits, and what endpoints may filter on). */
export const EVENT_TYPES = [
  "payment.awaiting_payment",
  "payment.pending",
  "payment.confirming",
  "payment.confirmed",
  "payment.expired",
  "payment.failed",
  "payout.confirmed",
  "payout.failed",
  "payout.blocked",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
