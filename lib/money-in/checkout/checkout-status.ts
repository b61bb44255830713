import { formatAmount } from "@/lib/kernel/amount";
import type { PaymentRow } from "@/lib/money-in/payments/payment-row";

/**
 * What the public checkout shows of a payment and streams while it changes: nothing merchant-private
 * (no metadata, no merchant or key identifiers), only what the payer needs.
 */
export interface CheckoutStatus {
  status: PaymentRow["status"];
  amount: string;
  amount_received: string;
  /** Still to pay while awaiting payment; "0.000000" otherwise. */
  amount_due: string;
  confirmations: number;
  confirmations_required: number | null;
  tx_hash: string | null;
  expires_at: string;
  /** The network's payments are detected late right now (its watcher lags or errs), while this one is open. */
  network_delayed: boolean;
}

export function checkoutStatus(
  payment: PaymentRow,
  confirmationsRequired: number | null,
  networkDelayed = false,
): CheckoutStatus {
  const due =
    payment.status === "awaiting_payment" && payment.amountUnits > payment.amountReceivedUnits
      ? payment.amountUnits - payment.amountReceivedUnits
      : 0n;
  return {
    status: payment.status,
    amount: formatAmount(payment.amountUnits),
    amount_received: formatAmount(payment.amountReceivedUnits),
    amount_due: formatAmount(due),
    confirmations: payment.confirmations,
    confirmations_required: confirmationsRequired,
    tx_hash: payment.txHash,
    expires_at: payment.expiresAt.toISOString(),
    network_delayed: networkDelayed && !FINAL_STATUSES.includes(payment.status),
  };
}

export const FINAL_STATUSES: PaymentRow["status"][] = ["confirmed", "expired", "failed"];
