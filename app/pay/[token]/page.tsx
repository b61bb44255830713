import type { Metadata } from "next";
import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { AmountSummary, CheckoutShell } from "@/components/checkout/checkout-shell";
import { NetworkPicker, networkChoiceError } from "@/components/checkout/network-picker";
import { availableNetworks } from "@/lib/money-in/checkout/load-checkout";
import { loadPaymentLinkPage } from "@/lib/money-in/checkout/pay-payment-link";
import { getDb } from "@/lib/platform/db/client";
import { formatAmount } from "@/lib/kernel/amount";
import { payLink } from "./actions";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Pay", robots: { index: false, follow: false } };

/**
 * A payment link's public page (docs/CHECKOUT.md): while active, the payer picks a network to start (or
 * return to) paying; an expired or full link says so instead.
 */
export default async function PayPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ error?: string }>;
}) {
  const [{ token }, { error }] = await Promise.all([params, searchParams]);
  const db = getDb();
  const page = await loadPaymentLinkPage(db, token);
  if (!page) notFound();
  const { link } = page;
  return (
    <CheckoutShell merchantName={page.merchantName} sandbox={link.mode === "sandbox"}>
      <AmountSummary amount={formatAmount(link.amountUnits)} description={link.description} />
      {!page.active ? (
        <LinkNotice title="This payment link has expired">
          Payment links are valid for 30 minutes. Ask {page.merchantName} for a new one.
        </LinkNotice>
      ) : error === "full" ? (
        <LinkNotice title="This payment link cannot take more payments now">
          It has reached its limit of payments. Ask {page.merchantName} for a new one.
        </LinkNotice>
      ) : (
        <NetworkPicker
          choices={await availableNetworks(db, link.mode)}
          action={payLink.bind(null, token)}
          error={networkChoiceError(
            error,
            "The payment could not be started. The link may have just expired; reload the page.",
          )}
        />
      )}
    </CheckoutShell>
  );
}

/** Why the link offers no network choice, in place of the picker. */
function LinkNotice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="px-5 py-5">
      <div
        role="status"
        className="min-h-[7.5rem] rounded-xl border border-slate-300 bg-slate-100 px-4 py-3 text-slate-900"
      >
        <p className="font-semibold">{title}</p>
        <p className="mt-1 text-sm">{children}</p>
      </div>
    </div>
  );
}
