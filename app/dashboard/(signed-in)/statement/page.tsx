import Link from "next/link";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { loadStatementPage } from "@/lib/dashboard/views/statement-view";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { NETWORK } from "@/lib/money-in/checkout/networks";
import { CHAINS } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";
import { BALANCE_TRANSACTION_TYPES } from "@/lib/reports/balance-transactions/balance-transaction-object";

export const dynamic = "force-dynamic";

const field = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-base";
const money = "text-right font-mono tabular-nums";

/** A period's statement per network (docs/DASHBOARD.md#statements): what the API's statement says. */
export default async function StatementPage({ searchParams }: { searchParams: Promise<Record<string, string>> }) {
  const [user, mode, q] = await Promise.all([requirePageUser("payouts:read"), dashboardMode(), searchParams]);
  const page = await loadStatementPage(getDb(), { merchantId: user.merchantId, mode }, q);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Statement</h1>
      <form
        method="get"
        aria-label="Statement period"
        className="grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-4"
      >
        <label className="text-sm font-medium text-slate-800">
          From (UTC)
          <input name="from" type="date" defaultValue={page.form.from} className={field} />
          {page.errors.from ? <span className="mt-1 block text-sm text-red-700">{page.errors.from}</span> : null}
        </label>
        <label className="text-sm font-medium text-slate-800">
          To (UTC, included)
          <input name="to" type="date" defaultValue={page.form.to} className={field} />
          {page.errors.to ? <span className="mt-1 block text-sm text-red-700">{page.errors.to}</span> : null}
        </label>
        <label className="text-sm font-medium text-slate-800">
          Network
          <select name="chain" defaultValue={page.form.chain} className={field}>
            <option value="">Every network</option>
            {CHAINS.map((c) => (
              <option key={c} value={c}>
                {NETWORK[c].name}
              </option>
            ))}
          </select>
        </label>
        <div className="flex items-end">
          <button type="submit" className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white">
            Show
          </button>
        </div>
      </form>
      {page.statement?.chains.map((c) => (
        <section
          key={c.chain}
          data-statement={c.chain}
          className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
        >
          <h2 className="text-lg font-semibold text-slate-900">{NETWORK[c.chain].name}</h2>
          <dl className="grid max-w-md grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
            <dt className="font-medium">Opening balance</dt>
            <dd className={money} data-opening>
              {c.opening_balance} USDT
            </dd>
            {BALANCE_TRANSACTION_TYPES.map((t) => (
              <div key={t} className="contents">
                <dt className="text-slate-700">{t.replaceAll("_", " ")}</dt>
                <dd className={money}>{c.totals[t]} USDT</dd>
              </div>
            ))}
            <dt className="text-slate-700">Fees</dt>
            <dd className={money}>{c.fees} USDT</dd>
            <dt className="font-medium">Closing balance</dt>
            <dd className={money} data-closing>
              {c.closing_balance} USDT
            </dd>
          </dl>
          <p className="text-sm text-slate-700">
            {c.transactions} balance transactions ·{" "}
            <Link href={`/dashboard/balance-transactions?chain=${c.chain}`} className="underline">
              see them
            </Link>{" "}
            · network costs paid by the operator for you: {c.network_costs.total} {c.network_costs.symbol}
          </p>
          {c.payouts.length ? (
            <ul className="divide-y divide-slate-200 text-sm">
              {c.payouts.map((p) => (
                <li key={p.id} className="flex flex-wrap items-center gap-3 py-1">
                  <Link href={`/dashboard/payouts/${p.id}`} className="font-mono text-xs underline">
                    {p.id}
                  </Link>
                  <StatusBadge status={p.status} />
                  <span className={money}>{p.amount} USDT</span>
                  <span className="font-mono text-xs text-slate-600">{p.tx_hash ?? "not sent yet"}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </div>
  );
}
