import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { getDb } from "@/lib/platform/db/client";
import { loadCostsPage } from "@/lib/dashboard/views/dashboard-costs";

export const dynamic = "force-dynamic";

type Figure = { count: number; total: string; average: string | null };

const cell = "px-3 py-2 text-right tabular-nums";
const head = "px-3 py-2 text-left font-medium text-slate-700";

function Spent({ f, symbol }: { f: Figure; symbol: string }) {
  if (!f.count) return <span className="text-slate-500">—</span>;
  return (
    <>
      {f.total} {symbol}
      <span className="block text-xs text-slate-600">
        {f.count} · {f.average} each
      </span>
    </>
  );
}

function HeaderRow({ cells }: { cells: string[] }) {
  return (
    <thead>
      <tr>
        {cells.map((h) => (
          <th key={h} scope="col" className={head}>
            {h}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** Network fees borne by this merchant's payments, payouts and refunds (owners and admins: `costs:read`). */
export default async function CostsPage({ searchParams }: { searchParams: Promise<{ since?: string }> }) {
  const [user, mode, params] = await Promise.all([requirePageUser("costs:read"), dashboardMode(), searchParams]);
  const { since, chains, days } = await loadCostsPage(getDb(), user.merchantId, mode, params.since);
  const symbol = new Map(chains.map((c) => [c.chain, c.symbol]));
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold text-slate-900">Costs</h1>
      <p className="max-w-3xl text-sm text-slate-700">
        The network fees the service paid in {mode} for your payments (sweeping them into the treasury, with what
        prepared each sweep), payouts and refunds, in each chain's own coin. A payment costs something once its deposit
        is swept.
      </p>
      <form method="get" className="flex items-end gap-3 text-sm">
        <label className="flex flex-col gap-1 font-medium text-slate-800">
          Since
          <input
            type="date"
            name="since"
            defaultValue={since}
            className="rounded-md border border-slate-300 px-2 py-1"
          />
        </label>
        <button type="submit" className="rounded-md bg-slate-900 px-3 py-1.5 font-medium text-white">
          Show
        </button>
      </form>
      {chains.length === 0 ? (
        <p className="text-sm text-slate-700">No network fees since {since}.</p>
      ) : (
        <>
          <table className="w-full rounded-lg bg-white text-sm shadow-sm ring-1 ring-slate-200">
            <caption className="sr-only">Fees per chain since {since}</caption>
            <HeaderRow cells={["Chain", "Payments", "Deposits", "Payouts", "Refunds", "Accepting 1 USDT"]} />
            <tbody className="divide-y divide-slate-200">
              {chains.map((c) => (
                <tr key={c.chain} data-chain={c.chain}>
                  <th scope="row" className="px-3 py-2 text-left font-medium">
                    {c.chain}
                  </th>
                  <td className={cell}>
                    <Spent f={c.payments} symbol={c.symbol} />
                  </td>
                  <td className={cell}>
                    <Spent f={c.deposits} symbol={c.symbol} />
                  </td>
                  <td className={cell}>
                    <Spent f={c.payouts} symbol={c.symbol} />
                  </td>
                  <td className={cell}>
                    <Spent f={c.refunds} symbol={c.symbol} />
                  </td>
                  <td className={cell} data-accepting>
                    {c.accepting_one_usdt ? `${c.accepting_one_usdt} ${c.symbol}` : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="w-full rounded-lg bg-white text-sm shadow-sm ring-1 ring-slate-200">
            <caption className="px-3 py-2 text-left font-semibold text-slate-900">By day (UTC)</caption>
            <HeaderRow cells={["Day", "Chain", "Payments", "Deposits", "Payouts", "Refunds"]} />
            <tbody className="divide-y divide-slate-200">
              {days.map((d) => (
                <tr key={`${d.day}-${d.chain}`}>
                  <td className="px-3 py-2">{d.day}</td>
                  <td className="px-3 py-2">{d.chain}</td>
                  <td className={cell}>
                    <Spent f={d.payments} symbol={symbol.get(d.chain) ?? ""} />
                  </td>
                  <td className={cell}>
                    <Spent f={d.deposits} symbol={symbol.get(d.chain) ?? ""} />
                  </td>
                  <td className={cell}>
                    <Spent f={d.payouts} symbol={symbol.get(d.chain) ?? ""} />
                  </td>
                  <td className={cell}>
                    <Spent f={d.refunds} symbol={symbol.get(d.chain) ?? ""} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
