"use client";
import { useEffect, useState } from "react";
import type { CheckoutStatus } from "@/lib/money-in/checkout/checkout-status";

const FINAL = ["confirmed", "expired", "failed"];
/** After the stream was refused (e.g. 429 from the page limit), try again this much later. */
const RETRY_REFUSED_MS = 20_000;

/**
 * The payment's status, kept live by server-sent events (one long request rather than polling). The
 * browser reconnects by itself when a stream simply ends; when a connection attempt is refused (an HTTP
 * error such as the page limit's 429), EventSource gives up, so this opens a new one a little later.
 */
export function useCheckoutStatus(paymentId: string, initial: CheckoutStatus): CheckoutStatus {
  const [status, setStatus] = useState(initial);
  useEffect(() => {
    if (FINAL.includes(initial.status)) return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const stop = () => {
      done = true;
      source?.close();
      clearTimeout(retry);
    };
    const open = () => {
      source = new EventSource(`/api/public/checkout/${encodeURIComponent(paymentId)}/events`);
      source.addEventListener("status", (e) => {
        const next = JSON.parse((e as MessageEvent<string>).data) as CheckoutStatus;
        setStatus(next);
        if (FINAL.includes(next.status)) stop();
      });
      source.addEventListener("end", stop);
      source.addEventListener("error", () => {
        if (!done && source?.readyState === EventSource.CLOSED) retry = setTimeout(open, RETRY_REFUSED_MS);
      });
    };
    open();
    return stop;
  }, [paymentId, initial.status]);
  return status;
}
