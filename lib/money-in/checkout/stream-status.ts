import { chainConfig } from "@/lib/chains/chain-config";
import type { Db } from "@/lib/platform/db/client";
import { sleep } from "@/lib/kernel/sleep";
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

/**
 * The checkout's live feed: the status now, then every change (checked each `intervalMs`), ending once
 * the payment is final, after `maxMs` (the browser then reconnects: no connection is held for hours), or
 * when `signal` aborts. One request serves ten minutes of a visit, so a payer watching confirmations
 * costs the 30/min page budget a request every ten minutes, not one per poll.
 */
export async function* streamCheckoutStatus(
  db: Db,
  paymentId: string,
  opts: { signal: AbortSignal; intervalMs?: number; maxMs?: number },
): AsyncGenerator<CheckoutStatus> {
  const deadline = Date.now() + (opts.maxMs ?? 10 * 60_000);
  let last = "";
  while (!opts.signal.aborted && Date.now() < deadline) {
    const status = await loadCheckoutStatus(db, paymentId);
    if (!status) return;
    const text = JSON.stringify(status);
    if (text !== last) {
      last = text;
      yield status;
    }
    if (FINAL_STATUSES.includes(status.status)) return;
    await sleep(opts.intervalMs ?? 1_000, opts.signal);
  }
}
