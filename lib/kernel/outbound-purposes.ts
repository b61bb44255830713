/** Why the service sends a transaction (docs/CUSTODY.md, "The outbound journal"). */
export const OUTBOUND_PURPOSES = [
  "sweep",
  "sweep_batch",
  "gas_topup",
  "payout",
  "payout_batch",
  "refund",
  "cancel",
  "account_close",
  "deploy",
  "approve",
  "undelegate",
  "energy_delegate",
  "energy_reclaim",
] as const;
export type OutboundPurpose = (typeof OUTBOUND_PURPOSES)[number];
