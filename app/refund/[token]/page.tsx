import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AmountSummary, CheckoutShell } from "@/components/checkout/checkout-shell";
import { ClaimForm } from "@/components/refund/claim-form";
import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import { formatAmount } from "@/lib/kernel/amount";
import { loadRefundClaim } from "@/lib/money-out/refunds/claim-refund";
import { getDb } from "@/lib/platform/db/client";
import { confirmClaim, reviewClaimAddress } from "./actions";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Your refund", robots: { index: false, follow: false } };

/**
 * A refund's claim page (docs/REFUNDS.md): the payer gives the address to receive it on the payment's network,
 * (and the one-time code the merchant sent separately, when required), then confirms. Unknown, used, canceled
 * and expired links are all the same 404; a link locked by wrong codes says so.
 */
export default async function RefundClaimPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const claim = await loadRefundClaim(getDb(), token);
  if (!claim) notFound();
  const { refund } = claim;
  const network = CHAIN_SPECS[refund.chain].name;
  const amount = formatAmount(refund.amountUnits);
  return (
    <CheckoutShell
      merchantName={claim.merchantName}
      sandbox={refund.mode === "sandbox"}
      heading="Refund from"
      banner="Sandbox refund — test networks only, no real money moves."
      footer="USDT payments · this link works once, for this refund only"
    >
      <AmountSummary
        amount={amount}
        description={`Refunded on ${network} · claim by ${refund.expiresAt!.toUTCString()}`}
      />
      {claim.locked ? (
        <p role="alert" className="px-5 py-5 text-sm text-red-800">
          This link is locked: the code was entered wrong too many times. Ask {claim.merchantName} for a new link and
          code.
        </p>
      ) : (
        <ClaimForm
          review={reviewClaimAddress.bind(null, token)}
          confirm={confirmClaim.bind(null, token)}
          amount={amount}
          network={network}
          family={CHAIN_SPECS[refund.chain].family}
          codeRequired={refund.claimCodeRequired}
        />
      )}
    </CheckoutShell>
  );
}
