"use client";
import type { CheckoutStatus } from "@/lib/money-in/checkout/checkout-status";
import type { CheckoutNetwork } from "@/lib/money-in/checkout/load-checkout";
import { paymentUri } from "@/lib/chains/payment-uri";
import { parseAmount } from "@/lib/kernel/amount";
import { Countdown } from "./countdown";
import { DepositDetails } from "./deposit-details";
import { SandboxPayButton, type SandboxPayResult } from "./sandbox-pay-button";
import { StatusScreen } from "./status-screen";
import { useCheckoutStatus } from "./use-checkout-status";
import { WalletButton } from "./wallet-button";

export interface PaymentPanelProps {
  paymentId: string;
  merchantName: string;
  initial: CheckoutStatus;
  network: CheckoutNetwork;
  depositAddress: string;
  sandboxPay?: (previous: SandboxPayResult) => Promise<SandboxPayResult>;
}

/** A payment whose network is chosen: live status, then where and how to pay while money is still due. */
export function PaymentPanel({
  paymentId,
  merchantName,
  initial,
  network,
  depositAddress,
  sandboxPay,
}: PaymentPanelProps) {
  const status = useCheckoutStatus(paymentId, initial);
  const awaiting = status.status === "awaiting_payment";
  const due = parseAmount(status.amount_due, "exact");
  const uri = awaiting && due.ok ? paymentUri(network, depositAddress, due.units) : null;
  return (
    <section aria-label="Payment" className="space-y-4 px-5 py-5">
      <StatusScreen status={status} network={network} merchantName={merchantName} />
      {status.network_delayed && (
        <p
          role="note"
          data-testid="network-delayed"
          className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
        >
          {network.name} is slow to report payments right now, so yours may take longer than usual to show here. It is
          not lost: it is credited as soon as it is seen. Do not pay again.
        </p>
      )}
      {awaiting && (
        <>
          <Countdown expiresAt={status.expires_at} />
          <DepositDetails network={network} depositAddress={depositAddress} uri={uri} amountDue={status.amount_due} />
          <div className="space-y-2">
            <WalletButton network={network} depositAddress={depositAddress} amountDue={status.amount_due} />
            {sandboxPay && <SandboxPayButton action={sandboxPay} />}
          </div>
        </>
      )}
    </section>
  );
}
