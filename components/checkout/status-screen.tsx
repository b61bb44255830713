import type { CheckoutStatus } from "@/lib/money-in/checkout/checkout-status";
import type { CheckoutNetwork } from "@/lib/money-in/checkout/load-checkout";
import { trimDecimal } from "@/lib/chains/payment-uri";

const trim = trimDecimal;

/**
 * The one line a payer looks for: what is happening now. It lives in a fixed-height, polite live region so
 * updates are announced and nothing below it moves.
 */
export function StatusScreen({
  status,
  network,
  merchantName,
}: {
  status: CheckoutStatus;
  network: CheckoutNetwork | null;
  merchantName: string;
}) {
  const required = status.confirmations_required;
  const progress = required ? Math.min(100, Math.round((status.confirmations / required) * 100)) : 0;
  let tone = "border-slate-200 bg-slate-50 text-slate-900";
  let title: string;
  let detail: string;
  switch (status.status) {
    case "awaiting_payment":
    case "intent_created":
      title = status.amount_received === "0.000000" ? "Waiting for your payment" : "Partly paid";
      detail =
        status.amount_received === "0.000000"
          ? `Send ${trim(status.amount_due)} USDT${network ? ` on ${network.name}` : ""}. This page updates by itself.`
          : `We received ${trim(status.amount_received)} USDT. ` +
            `Send the remaining ${trim(status.amount_due)} USDT to complete the payment.`;
      break;
    case "pending":
    case "confirming":
      tone = "border-blue-200 bg-blue-50 text-blue-950";
      title = "Payment received — confirming";
      detail =
        `${status.confirmations} of ${required ?? "?"} network confirmations. ` +
        "You can close this page; the payment completes on its own.";
      break;
    case "confirmed":
      tone = "border-green-300 bg-green-50 text-green-950";
      title = "Payment complete";
      detail = `${trim(status.amount_received)} USDT received by ${merchantName}. Thank you!`;
      break;
    case "expired":
      tone = "border-slate-300 bg-slate-100 text-slate-900";
      title = "This payment has expired";
      detail =
        status.amount_received === "0.000000"
          ? "The time to pay ran out. Ask the merchant for a new payment link; do not send funds to this address."
          : `The time to pay ran out after ${trim(status.amount_received)} USDT arrived. ` +
            `Those funds are not lost: contact ${merchantName}.`;
      break;
    case "failed":
      tone = "border-red-300 bg-red-50 text-red-950";
      title = "This payment could not be completed";
      detail =
        "The network dropped the transfer after the time to pay had run out. " +
        `Contact ${merchantName}; do not send again to this address.`;
      break;
  }
  const inFlight = status.status === "pending" || status.status === "confirming";
  return (
    <div
      role="status"
      aria-live="polite"
      data-status={status.status}
      className={`min-h-[7.5rem] rounded-xl border px-4 py-3 ${tone}`}
    >
      <p className="font-semibold">{title}</p>
      <p className="mt-1 text-sm">{detail}</p>
      {inFlight && (
        <div className="mt-3 h-2 w-full overflow-hidden rounded-full bg-blue-100" aria-hidden="true">
          <div
            className="h-full rounded-full bg-blue-600 transition-[width] duration-500"
            style={{ width: `${progress}%` }}
          />
        </div>
      )}
      {status.tx_hash && (status.status === "confirmed" || inFlight) && (
        <p className="mt-2 break-all font-mono text-xs opacity-80" data-testid="tx-hash">
          Transaction {status.tx_hash}
        </p>
      )}
    </div>
  );
}
