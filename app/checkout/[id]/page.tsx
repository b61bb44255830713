import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AmountSummary, CheckoutShell } from "@/components/checkout/checkout-shell";
import { NetworkPicker, networkChoiceError } from "@/components/checkout/network-picker";
import { PaymentPanel } from "@/components/checkout/payment-panel";
import { StatusScreen } from "@/components/checkout/status-screen";
import { loadCheckout } from "@/lib/money-in/checkout/load-checkout";
import { getDb } from "@/lib/platform/db/client";
import { chooseNetwork, payWithSandboxWallet } from "./actions";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Checkout", robots: { index: false, follow: false } };

/** The hosted checkout of one payment (docs/CHECKOUT.md): public, scoped to that payment, server-rendered. */
export default async function CheckoutPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ error?: string }>;
}) {
  const [{ id }, { error }] = await Promise.all([params, searchParams]);
  const view = await loadCheckout(getDb(), id);
  if (!view) notFound();
  const sandbox = view.mode === "sandbox";
  const open = view.status.status === "awaiting_payment";
  return (
    <CheckoutShell merchantName={view.merchantName} sandbox={sandbox}>
      <AmountSummary amount={view.status.amount} description={view.description} />
      {view.network && view.depositAddress ? (
        <PaymentPanel
          paymentId={view.paymentId}
          merchantName={view.merchantName}
          initial={view.status}
          network={view.network}
          depositAddress={view.depositAddress}
          sandboxPay={sandbox ? payWithSandboxWallet.bind(null, view.paymentId) : undefined}
        />
      ) : open ? (
        <NetworkPicker
          choices={view.choices}
          action={chooseNetwork.bind(null, view.paymentId)}
          error={networkChoiceError(
            error,
            "That choice could not be recorded. The payment may have expired; reload the page.",
          )}
        />
      ) : (
        <div className="px-5 py-5">
          <StatusScreen status={view.status} network={null} merchantName={view.merchantName} />
        </div>
      )}
    </CheckoutShell>
  );
}
