import Link from "next/link";
import { NETWORK } from "@/lib/money-in/checkout/networks";
import type { Chain } from "@/lib/chains/chains";

type Item = { id: string; status: string; chain: string | null; amount: string; created_at: string };

/** The latest payments, newest first; an empty state that says how to make one. */
export function RecentPayments({ payments }: { payments: Item[] }) {
  if (payments.length === 0)
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-sm text-slate-700">
        No payments yet. Create one with <code className="font-mono">POST /v1/payments</code> or share a payment link.
      </p>
    );
  return (
    <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      {payments.map((p) => (
        <li key={p.id} data-payment={p.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-4 py-3 text-sm">
          <span className="font-mono font-medium tabular-nums">{p.amount} USDT</span>
          <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800">{p.status}</span>
          <span className="text-slate-600">
            {p.chain ? (NETWORK[p.chain as Chain]?.name ?? p.chain) : "no network yet"}
          </span>
          <span className="w-full truncate font-mono text-xs text-slate-500">
            <Link href={`/dashboard/payments/${p.id}`} className="text-slate-700 underline underline-offset-2">
              {p.id}
            </Link>{" "}
            · <time dateTime={p.created_at}>{p.created_at.replace("T", " ").slice(0, 16)} UTC</time>
          </span>
        </li>
      ))}
    </ul>
  );
}
