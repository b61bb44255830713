/**
 * Why a treasury transfer for a payout or a refund did not pay, the codes both share (each kind adds its own:
 * a payout's `rejected`, a refund's cancelations): its destination refused before signing, or the transfer failed.
 */
export const TRANSFER_FAILURE_CODES = {
  denied_destination: "The destination is on the operator's deny-list.",
  sanctioned_destination: "The chain's sanctions oracle lists the destination.",
  destination_frozen: "USDT's issuer has frozen the destination: a transfer to it would fail, so none was sent.",
  transfer_reverted: "The transfer was mined and failed on chain (e.g. the token refuses the recipient).",
  transfer_expired: "The transfer could not be included before it expired, after the allowed re-signs.",
} as const;
export type TransferFailureCode = keyof typeof TRANSFER_FAILURE_CODES;
