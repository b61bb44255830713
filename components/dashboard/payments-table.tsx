import Link from "next/link";
import { NETWORK } from "@/lib/money-in/checkout/networks";
import type { Chain } from "@/lib/chains/chains";
import { StatusBadge, UtcTime } from "./status-badge";

type Row = {
  id: string;
  status: string;
  chain: string | null;
  amount: string;
  address: string | null;
  created_at: string;
};

/** The payments as a table that scrolls inside its own box at phone width (the page itself never does). */
export function PaymentsTable({ payments }: { payments: Row[] }) {
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">Payments, newest first</caption>
        <thead className="bg-slate-50 text-xs uppercase text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 text-right">
              Amount
            </th>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
            <th scope="col" className="px-3 py-2">
              Network
            </th>
            <th scope="col" className="px-3 py-2">
              Payment
            </th>
            <th scope="col" className="px-3 py-2">
              Created
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {payments.map((p) => (
            <tr key={p.id} data-payment={p.id}>
              <td className="whitespace-nowrap px-3 py-2 text-right font-mono tabular-nums">{p.amount} USDT</td>
              <td className="px-3 py-2">
                <StatusBadge status={p.status} />
              </td>
              <td className="whitespace-nowrap px-3 py-2">
                {p.chain ? (NETWORK[p.chain as Chain]?.name ?? p.chain) : "not chosen"}
              </td>
              <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">
                <Link href={`/dashboard/payments/${p.id}`} className="text-slate-900 underline underline-offset-2">
                  {p.id}
                </Link>
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-xs text-slate-600">
                <UtcTime iso={p.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
