import type { ReactNode } from "react";

/** The frame of every public page: who is asking to be paid, a sandbox banner when nothing real moves. */
export function CheckoutShell({
  merchantName,
  sandbox,
  children,
  heading = "Payment to",
  banner = "Sandbox payment — test networks only, no real money moves.",
  footer = "USDT payments · this page is for one payment only",
}: {
  merchantName: string;
  sandbox: boolean;
  children: ReactNode;
  heading?: string;
  banner?: string;
  footer?: string;
}) {
  return (
    <main className="min-h-screen bg-slate-100 px-3 py-5 sm:px-4 sm:py-10">
      {sandbox && (
        <p
          role="note"
          className={
            "mx-auto mb-3 max-w-md rounded-lg border border-amber-400 " +
            "bg-amber-50 px-4 py-2 text-sm font-medium text-amber-900"
          }
        >
          {banner}
        </p>
      )}
      <div className="mx-auto max-w-md overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        <header className="border-b border-slate-100 px-5 py-4">
          <p className="text-xs font-medium uppercase tracking-wide text-slate-600">{heading}</p>
          <p className="mt-0.5 truncate text-lg font-semibold text-slate-900">{merchantName}</p>
        </header>
        {children}
      </div>
      <p className="mx-auto mt-4 max-w-md text-center text-xs text-slate-600">{footer}</p>
    </main>
  );
}

/** The amount, impossible to misread: large, with its currency, and the merchant's description. */
export function AmountSummary({ amount, description }: { amount: string; description: string | null }) {
  const [whole, fraction] = amount.split(".");
  const cents = (fraction ?? "").replace(/0+$/, "");
  return (
    <section aria-label="Amount" className="px-5 pt-5">
      <p className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
        {Number(whole).toLocaleString("en-US")}
        {cents && <span>.{cents.padEnd(2, "0")}</span>}{" "}
        <span className="text-xl font-semibold text-slate-600">USDT</span>
      </p>
      {description && <p className="mt-1 break-words text-sm text-slate-700">{description}</p>}
    </section>
  );
}
