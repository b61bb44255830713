"use client";
import dynamic from "next/dynamic";
import { useState } from "react";
import type { WalletPayProps } from "./wallet/wallet-pay";
import { cn } from "@/components/class-names";

// The wallet libraries (wagmi, TronLink glue, Solana wallet adapter) load only when the payer asks.
const WalletPay = dynamic(() => import("./wallet/wallet-pay"), {
  ssr: false,
  loading: () => <p className="py-3 text-center text-sm text-slate-700">Loading wallet support…</p>,
});

export function WalletButton(props: WalletPayProps) {
  const [open, setOpen] = useState(false);
  if (open) return <WalletPay {...props} />;
  return (
    <button
      type="button"
      onClick={() => setOpen(true)}
      className={cn(
        "w-full rounded-xl bg-slate-900 px-4 py-3 font-medium text-white hover:bg-slate-800",
        "focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:ring-offset-2",
      )}
    >
      Pay with a browser wallet
    </button>
  );
}
