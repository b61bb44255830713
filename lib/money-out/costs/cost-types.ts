/** Whom a transaction's fee is attributed to: a payment, a payout, a refund, or the installation itself. */
export const COST_SUBJECTS = ["payment", "payout", "refund", "installation"] as const;
export type CostSubject = (typeof COST_SUBJECTS)[number];
