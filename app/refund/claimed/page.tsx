import type { Metadata } from "next";
import { CheckoutShell } from "@/components/checkout/checkout-shell";

export const metadata: Metadata = { title: "Refund on its way", robots: { index: false, follow: false } };

/** Where a confirmed claim lands: the link is spent, so this page names no refund. */
export default function RefundClaimedPage() {
  return (
    <CheckoutShell merchantName="Your refund" sandbox={false} heading="Refund" footer="USDT payments">
      <div role="status" className="px-5 py-6">
        <p className="text-lg font-semibold text-slate-900">Your refund is on its way</p>
        <p className="mt-1 text-sm text-slate-700">
          The USDT is being sent to the address you confirmed. It usually arrives within a few minutes; the merchant can
          tell you its transaction once it is confirmed. This link cannot be used again.
        </p>
      </div>
    </CheckoutShell>
  );
}
