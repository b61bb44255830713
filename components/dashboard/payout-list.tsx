import Link from "next/link";
import type { ReactNode } from "react";
import { formatAmount } from "@/lib/kernel/amount";
import type { PayoutRow } from "@/lib/money-out/payouts/payout-row";

/** Payouts as rows linking to their detail; `extra` adds controls under a row (the review buttons). */
export function PayoutList({
  rows,
  label,
  extra,
}: {
  rows: PayoutRow[];
  label: string;
  extra?: (p: PayoutRow) => ReactNode;
}) {
  return (
    <ul aria-label={label} className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      {rows.map((p) => (
        <li key={p.id} data-payout={p.id} data-status={p.status} className="space-y-2 px-4 py-3 text-sm">
          <div className="flex flex-wrap gap-x-3 gap-y-1">
            <Link
              href={`/dashboard/payouts/${p.id}`}
              className="font-medium text-slate-900 underline underline-offset-2"
            >
              {formatAmount(p.amountUnits)} USDT
            </Link>
            <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{p.status}</span>
            <span className="text-xs text-slate-600">{p.chain}</span>
            <span className="w-full font-mono text-xs break-all text-slate-600">to {p.toAddress}</span>
            <span className="w-full text-xs text-slate-600">
              {p.id} · {p.createdAt.toISOString().slice(0, 16).replace("T", " ")}
            </span>
          </div>
          {extra?.(p)}
        </li>
      ))}
    </ul>
  );
}
