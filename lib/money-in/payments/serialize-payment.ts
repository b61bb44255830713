import type { PaymentListItem, PaymentObject } from "./payment-object";
import { formatAmount } from "@/lib/kernel/amount";
import type { PaymentObjectRow, PaymentRow } from "./payment-row";
import type { PaymentTransfer } from "./payment-transfers";

export function checkoutUrl(baseUrl: string, paymentId: string): string {
  return `${baseUrl}/checkout/${paymentId}`;
}

/**
 * The payment object (docs/API.md#the-payment-object), used by the API, events and the dashboard alike. `chain` and
 * `deposit_address` are null until chosen; `description` appears only when supplied; `confirmed_at` only on a confirmed
 * payment; `amount_received` (an addition) is the sum of the transfers seen to the deposit address on its chain, and
 * `transfers` (read with readPaymentTransfers) lists them.
 */
export function serializePayment(row: PaymentObjectRow, baseUrl: string, transfers: PaymentTransfer[]): PaymentObject {
  return {
    id: row.id,
    object: "payment" as const,
    status: row.status,
    chain: row.chain,
    amount: formatAmount(row.amountUnits),
    currency: "USDT" as const,
    // An addition to the object (docs/API.md#the-payment-object):
    // what has arrived so far, so under- and overpayments are visible.
    amount_received: formatAmount(row.amountReceivedUnits),
    amount_refunded: formatAmount(row.amountRefundedUnits),
    deposit_address: row.depositAddress,
    ...(row.description !== null ? { description: row.description } : {}),
    metadata: row.metadata,
    customer: row.customerId,
    checkout_url: checkoutUrl(baseUrl, row.id),
    tx_hash: row.txHash,
    payer_address: row.payerAddress,
    transfers: transfers.map((t) => ({
      from: t.from,
      amount: formatAmount(t.amountUnits),
      tx_hash: t.txHash,
      status: t.status,
    })),
    confirmations: row.confirmations,
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    ...(row.confirmedAt ? { confirmed_at: row.confirmedAt.toISOString() } : {}),
  };
}

/** List items carry only the documented subset of the same object. */
export function serializePaymentListItem(row: PaymentRow): PaymentListItem {
  const { id, object, status, chain, amount, currency, created_at } = serializePayment(row, "", []);
  return { id, object, status, chain, amount, currency, created_at };
}
