"use client";
import { useEffect, useState } from "react";
import { cn } from "@/components/class-names";
import type { ChainFamily } from "@/lib/chains/chain-registry";
import type { AddressWallet } from "./wallet-address";

/**
 * "Use my address from <wallet>" for each browser wallet of the refund's network family: the wallet is asked for
 * an account (nothing is signed) and the address field is filled, to be checked and confirmed like a typed one.
 * Nothing shows when no wallet is installed.
 */
export function WalletFill({ family, onAddress }: { family: ChainFamily; onAddress: (address: string) => void }) {
  const [wallets, setWallets] = useState<AddressWallet[]>([]);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  useEffect(() => {
    let current = true;
    // Loaded only here: the wallet glue (viem's checksum) stays out of the page until it runs in the browser.
    void import("./wallet-address")
      .then((m) => m.findAddressWallets(family))
      .then((found) => current && setWallets(found))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [family]);
  if (!wallets.length) return null;
  const use = async (wallet: AddressWallet) => {
    setMessage({ text: `Asking ${wallet.name} for your address…`, error: false });
    try {
      onAddress(await wallet.address());
      setMessage({ text: `Filled from ${wallet.name}. Check it, then continue.`, error: false });
    } catch (err) {
      const said = err instanceof Error ? err.message : String(err);
      setMessage({ text: `${wallet.name} gave no address (${said}). You can type it instead.`, error: true });
    }
  };
  return (
    <div className="mt-3 space-y-2">
      {wallets.map((w) => (
        <button
          key={w.name}
          type="button"
          onClick={() => void use(w)}
          className={cn(
            "min-h-11 w-full rounded-xl border border-slate-300 px-4 " +
              "py-2 text-sm font-medium text-slate-900 hover:bg-slate-50",
            "focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600",
          )}
        >
          Use my address from {w.name}
        </button>
      ))}
      {message && (
        <p
          role={message.error ? "alert" : "status"}
          className={message.error ? "text-sm text-red-800" : "text-sm text-slate-700"}
        >
          {message.text}
        </p>
      )}
    </div>
  );
}
