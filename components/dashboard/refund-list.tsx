import Link from "next/link";
import type { RefundView } from "@/lib/dashboard/actions/dashboard-refunds";

/** Refunds as rows linking to their detail. */
export function RefundList({ refunds, label }: { refunds: RefundView[]; label: string }) {
  if (refunds.length === 0) return <p className="text-sm text-slate-700">No refunds.</p>;
  return (
    <ul aria-label={label} className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      {refunds.map((r) => (
        <li key={r.id} data-refund={r.id} data-status={r.status} className="px-4 py-3 text-sm">
          <div className="flex flex-wrap gap-x-3 gap-y-1">
            <Link
              href={`/dashboard/refunds/${r.id}`}
              className="font-medium text-slate-900 underline underline-offset-2"
            >
              {r.amount} USDT
            </Link>
            <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs">{r.status}</span>
            <span className="text-xs text-slate-600">{r.chain}</span>
            <span className="text-xs text-slate-600">{r.destination}</span>
            <span className="w-full font-mono text-xs break-all text-slate-600">
              {r.to_address ? `to ${r.to_address}` : "waiting for the payer's address"}
            </span>
            <span className="w-full text-xs text-slate-600">
              {r.id} · payment {r.payment} · {r.created_at.slice(0, 16).replace("T", " ")}
            </span>
          </div>
        </li>
      ))}
    </ul>
  );
}
