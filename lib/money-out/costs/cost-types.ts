/**
 * Whom a transaction's fee is attributed to: a payment, a deposit (to a customer's deposit address), a payout, a
 * refund, or the installation itself.
 */
export const COST_SUBJECTS = ["payment", "deposit", "payout", "refund", "installation"] as const;
export type CostSubject = (typeof COST_SUBJECTS)[number];
