import Link from "next/link";
import { ListTable } from "@/components/dashboard/list-table";
import { ExportLink } from "@/components/dashboard/export-link";
import { UtcTime } from "@/components/dashboard/status-badge";
import { loadBalanceTransactionsPage } from "@/lib/dashboard/views/balance-transactions-view";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { NETWORK } from "@/lib/money-in/checkout/networks";
import { getDb } from "@/lib/platform/db/client";

export const dynamic = "force-dynamic";

// Longest prefix first: a payout's id (pay_out_…) also begins with a payment's prefix.
const SOURCE_PAGES: [string, string][] = [
  ["pay_out_", "payouts"],
  ["pay_", "payments"],
  ["re_", "refunds"],
];

/** Every movement of `available`, newest first, with the balance it left (docs/DASHBOARD.md#balance-history). */
export default async function BalanceTransactionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string>>;
}) {
  const [user, mode, q] = await Promise.all([requirePageUser("balances:read"), dashboardMode(), searchParams]);
  const page = await loadBalanceTransactionsPage(getDb(), { merchantId: user.merchantId, mode }, q);
  const query = { chain: page.chain, type: page.type };
  const sourceHref = (source: string) => {
    const kind = SOURCE_PAGES.find(([prefix]) => source.startsWith(prefix))?.[1];
    return kind ? `/dashboard/${kind}/${source}` : null;
  };
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="mr-auto text-2xl font-semibold text-slate-900">
          Balance history{page.chain ? ` · ${NETWORK[page.chain].name}` : ""}
        </h1>
        <ExportLink path="/dashboard/balance-transactions" query={query} />
      </div>
      {page.rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-sm text-slate-700">
          {page.stale ? "This page is no longer available." : "Nothing has moved this balance yet."}
        </p>
      ) : (
        <ListTable
          caption="Balance transactions, newest first"
          columns={["Type", "Amount", "Available after", "Network", "Source", "Booked"]}
        >
          {page.rows.map((t) => {
            const href = sourceHref(t.source);
            return (
              <tr key={t.id} data-txn={t.id}>
                <td className="px-3 py-2">{t.type.replaceAll("_", " ")}</td>
                <td className="whitespace-nowrap px-3 py-2 text-right font-mono tabular-nums">{t.amount} USDT</td>
                <td className="whitespace-nowrap px-3 py-2 text-right font-mono tabular-nums">{t.available_after}</td>
                <td className="whitespace-nowrap px-3 py-2">{NETWORK[t.chain].name}</td>
                <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">
                  {href ? (
                    <Link href={href} className="underline">
                      {t.source}
                    </Link>
                  ) : (
                    t.source
                  )}
                </td>
                <td className="whitespace-nowrap px-3 py-2 text-xs text-slate-600">
                  <UtcTime iso={t.created_at} />
                </td>
              </tr>
            );
          })}
        </ListTable>
      )}
      {page.next ? (
        <Link
          href={`/dashboard/balance-transactions?${new URLSearchParams({
            ...(page.chain ? { chain: page.chain } : {}),
            ...(page.type ? { type: page.type } : {}),
            after: page.next,
          })}`}
          className="inline-block rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium"
          rel="next"
        >
          Next
        </Link>
      ) : null}
    </div>
  );
}
