"use client";
import { QRCodeSVG } from "qrcode.react";
import type { CheckoutNetwork } from "@/lib/money-in/checkout/load-checkout";
import { CopyButton } from "./copy-button";

/**
 * Where to send: the deposit address (with copy), a QR code a wallet understands, the network and token
 * contract spelled out, and the one warning that matters.
 */
export function DepositDetails({
  network,
  depositAddress,
  uri,
  amountDue,
}: {
  network: CheckoutNetwork;
  depositAddress: string;
  uri: string | null;
  amountDue: string;
}) {
  return (
    <div className="space-y-4">
      <div className="flex justify-center">
        <div className="h-[234px] w-[234px] rounded-xl border border-slate-200 bg-white p-3">
          {uri && (
            <QRCodeSVG value={uri} size={208} level="M" title={`QR code: pay ${amountDue} USDT on ${network.name}`} />
          )}
        </div>
      </div>
      <div>
        <p id="deposit-label" className="text-sm font-medium text-slate-800">
          Send to this {network.name} address
        </p>
        <div className="mt-1 flex items-start gap-2">
          {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: screen readers announce the address with its label */}
          <code
            aria-labelledby="deposit-label"
            data-testid="deposit-address"
            className="min-w-0 flex-1 break-all rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm text-slate-900"
          >
            {depositAddress}
          </code>
          <CopyButton value={depositAddress} label="Copy the deposit address" />
        </div>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">Network</dt>
        <dd className="font-medium text-slate-900">
          {network.name}
          {network.emulated ? " (emulated sandbox chain)" : ""}
        </dd>
        <dt className="text-slate-600">Token</dt>
        <dd className="text-slate-900">USDT ({network.standard})</dd>
        <dt className="text-slate-600">Contract</dt>
        <dd className="break-all font-mono text-xs text-slate-900">{network.tokenAddress}</dd>
      </dl>
      <p role="note" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
        Send only <strong>USDT</strong> on the <strong>{network.name}</strong> network to this address. Other tokens, or
        USDT sent on another network, will not complete this payment.
      </p>
    </div>
  );
}
