"use client";
import dynamic from "next/dynamic";
import { useEffect, useRef } from "react";
import { parseAmount } from "@/lib/kernel/amount";
import type { WalletPayProps } from "./wallet-pay-props";

export type { WalletPayProps } from "./wallet-pay-props";

const loading = () => <p className="min-h-11 py-3 text-sm text-slate-700">Loading wallet support…</p>;
// One family's libraries per payment: an EVM payer never downloads the Solana adapter, and so on.
const EvmPay = dynamic(() => import("./evm-pay"), { ssr: false, loading });
const TronPay = dynamic(() => import("./tron-pay"), { ssr: false, loading });
const SolanaPay = dynamic(() => import("./solana-pay"), { ssr: false, loading });

/**
 * Pay from a browser wallet: loaded (with wallet-button.tsx's dynamic import) only when the payer asks.
 * Connects a wallet of the payment's network family and sends exactly what is due to the deposit address;
 * the page's status comes from the server, so this only gets the transfer sent.
 */
export default function WalletPay(props: WalletPayProps) {
  const ref = useRef<HTMLElement>(null);
  // The button that opened this is gone; keep keyboard and screen-reader users here.
  useEffect(() => ref.current?.focus(), []);
  const owed = parseAmount(props.amountDue, "exact");
  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby="wallet-pay-title"
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 focus:outline-none"
    >
      <p id="wallet-pay-title" className="font-medium text-slate-900">
        Pay with a browser wallet
      </p>
      {!owed.ok ? (
        <p className="text-sm text-slate-800">Nothing is due right now.</p>
      ) : props.network.family === "evm" ? (
        <EvmPay {...props} />
      ) : props.network.family === "tron" ? (
        <TronPay {...props} />
      ) : (
        <SolanaPay {...props} />
      )}
    </section>
  );
}
