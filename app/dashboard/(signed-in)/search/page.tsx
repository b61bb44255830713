import Link from "next/link";
import { ListTable } from "@/components/dashboard/list-table";
import { StatusBadge, UtcTime } from "@/components/dashboard/status-badge";
import { loadSearchResults } from "@/lib/dashboard/views/search-results";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { NETWORK } from "@/lib/money-in/checkout/networks";
import type { Chain } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";

export const dynamic = "force-dynamic";

/** The header's search box lands here: payments, payouts and refunds by id, address, hash, amount or metadata. */
export default async function SearchPage({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  const [user, mode, params] = await Promise.all([requirePageUser("payments:read"), dashboardMode(), searchParams]);
  const q = Array.isArray(params.q) ? params.q[0] : params.q;
  const found = await loadSearchResults(getDb(), { merchantId: user.merchantId, mode }, user.role, q);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Search</h1>
      <p className="text-sm text-slate-700">
        An id, an address, a transaction hash, an amount (12.34), a metadata value, or words of a description. Narrow
        with <code>type:payout</code>, <code>metadata[order_id]:A-1</code> or <code>amount:5</code>.
      </p>
      {found.error ? (
        <p role="alert" className="text-sm text-red-700">
          {found.error}
        </p>
      ) : !found.query ? null : found.results.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-sm text-slate-700">
          Nothing in {mode} matches “{found.query}”.
        </p>
      ) : (
        <ListTable
          caption="Search results, newest first"
          columns={["Kind", "Amount", "Status", "Network", "Id", "Created"]}
        >
          {found.results.map((r) => (
            <tr key={r.id} data-result={r.id}>
              <td className="px-3 py-2 capitalize">{r.kind}</td>
              <td className="whitespace-nowrap px-3 py-2 font-mono tabular-nums">{r.amount} USDT</td>
              <td className="px-3 py-2">
                <StatusBadge status={r.status} />
              </td>
              <td className="whitespace-nowrap px-3 py-2">
                {r.chain ? (NETWORK[r.chain as Chain]?.name ?? r.chain) : "not chosen"}
              </td>
              <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">
                <Link href={r.href} className="text-slate-900 underline underline-offset-2">
                  {r.id}
                </Link>
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-xs text-slate-600">
                <UtcTime iso={r.createdAt} />
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      {found.more ? <p className="text-sm text-slate-700">Showing the newest 50: add a term to narrow.</p> : null}
    </div>
  );
}
