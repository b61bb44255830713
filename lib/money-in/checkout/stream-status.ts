import { chainConfig } from "@/lib/chains/chain-config";
import type { Db } from "@/lib/platform/db/client";
import { changeSignal } from "@/lib/platform/db/change-feed";
import { checkoutStatus, FINAL_STATUSES, type CheckoutStatus } from "./checkout-status";
import { loadPaymentForCheckout } from "./load-checkout";
import { networkDelayed } from "./network-delay";

export async function loadCheckoutStatus(db: Db, paymentId: string): Promise<CheckoutStatus | null> {
  const payment = await loadPaymentForCheckout(db, paymentId);
  if (!payment) return null;
  const config = payment.chain ? await chainConfig(db, payment.mode, payment.chain) : null;
  const delayed = payment.chain ? await networkDelayed(db, payment.mode, payment.chain) : false;
  return checkoutStatus(payment, config?.confirmations.required ?? null, delayed);
}

/** Sent by the database when a transaction that changed the payment commits (its id is the key). */
export const PAYMENT_CHANGED = "payment_changed";
/** How often a quiet stream recomputes `network_delayed` (from the process's cache: no read of its own). */
const RECHECK_MS = 10_000;

/**
 * The checkout's live feed: the status now, then every change, ending once the payment is final, after
 * `maxMs` (the browser then reconnects: no connection is held for hours), or when `signal` aborts. The
 * payment is read again only when the database says it changed (lib/platform/db/change-feed.ts), so an
 * open page costs nothing while nothing happens; `network_delayed` comes from the process's 10 s view of
 * the watchers. One request serves ten minutes of a visit, so a payer watching confirmations costs the
 * 30/min page budget a request every ten minutes.
 */
export async function* streamCheckoutStatus(
  db: Db,
  paymentId: string,
  opts: { signal: AbortSignal; maxMs?: number; recheckMs?: number },
): AsyncGenerator<CheckoutStatus> {
  const deadline = Date.now() + (opts.maxMs ?? 10 * 60_000);
  // Subscribed before the first read: a change committed after it wakes the loop.
  const changes = changeSignal(PAYMENT_CHANGED, paymentId);
  try {
    let payment: Awaited<ReturnType<typeof loadPaymentForCheckout>> = null;
    let required: number | null = null;
    let last = "";
    let read = true;
    while (!opts.signal.aborted && Date.now() < deadline) {
      if (read) {
        payment = await loadPaymentForCheckout(db, paymentId);
        if (!payment) return;
        required = payment.chain
          ? ((await chainConfig(db, payment.mode, payment.chain))?.confirmations.required ?? null)
          : null;
      }
      const delayed = payment!.chain ? await networkDelayed(db, payment!.mode, payment!.chain) : false;
      const status = checkoutStatus(payment!, required, delayed);
      const text = JSON.stringify(status);
      if (text !== last) {
        last = text;
        yield status;
      }
      if (FINAL_STATUSES.includes(status.status)) return;
      const wait = Math.min(opts.recheckMs ?? RECHECK_MS, deadline - Date.now());
      read = (await changes.next(Math.max(0, wait), opts.signal)).length > 0;
    }
  } finally {
    changes.close();
  }
}
