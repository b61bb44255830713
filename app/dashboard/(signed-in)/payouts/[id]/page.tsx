import Link from "next/link";
import { notFound } from "next/navigation";
import { ReviewButtons } from "@/components/dashboard/review-buttons";
import { DomainError } from "@/lib/kernel/domain-error";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { loadPayoutDetail } from "@/lib/dashboard/views/load-payout-detail";
import { getDb } from "@/lib/platform/db/client";
import { can } from "@/lib/identity/users/roles";
import { reviewPayoutAction } from "../actions";
import { cn } from "@/components/class-names";

export const dynamic = "force-dynamic";

const when = (iso: string) => iso.slice(0, 19).replace("T", " ");

/** One payout of the selected mode; another merchant's or the other mode's is 404. */
export default async function PayoutPage({ params }: { params: Promise<{ id: string }> }) {
  const [user, mode, { id }] = await Promise.all([requirePageUser("payouts:read"), dashboardMode(), params]);
  const detail = await loadPayoutDetail(getDb(), { merchantId: user.merchantId, mode }, id).catch((err) => {
    if (err instanceof DomainError && err.type === "not_found") notFound();
    throw err;
  });
  const { payout, transactions, timeline } = detail;
  const facts: [string, string][] = [
    ["Status", payout.status],
    ["Amount", `${payout.amount} USDT`],
    ["Chain", payout.chain],
    ["Destination", payout.to_address],
    ["Fee", transactions.find((t) => t.fee)?.fee ?? "network fee paid by the service; none yet"],
    ...(payout.description ? [["Description", payout.description] as [string, string]] : []),
    ...(Object.keys(payout.metadata).length ? [["Metadata", JSON.stringify(payout.metadata)] as [string, string]] : []),
    ...(payout.failure_code
      ? [["Failure", `${payout.failure_code}: ${detail.failure ?? ""}`] as [string, string]]
      : []),
    ...(detail.held ? [["Held for review", detail.held] as [string, string]] : []),
  ];
  return (
    <div className="space-y-6">
      <Link href="/dashboard/payouts" className="text-sm underline">
        ← Payouts
      </Link>
      <h1 className="text-2xl font-semibold break-all text-slate-900">Payout {payout.id}</h1>
      <dl
        className={cn(
          "grid grid-cols-1 gap-x-4 gap-y-2",
          "rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200",
          "sm:grid-cols-[10rem_1fr]",
        )}
      >
        {facts.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="font-medium text-slate-700">{k}</dt>
            <dd data-field={k} className="break-all text-slate-900">
              {v}
            </dd>
          </div>
        ))}
      </dl>
      {payout.status === "review_required" && can(user.role, "payouts:approve") && (
        <ReviewButtons id={payout.id} action={reviewPayoutAction} next={`/dashboard/payouts/${payout.id}`} />
      )}
      <section aria-labelledby="tx-heading" className="space-y-2">
        <h2 id="tx-heading" className="text-lg font-semibold text-slate-900">
          Transaction
        </h2>
        {transactions.length === 0 ? (
          <p className="text-sm text-slate-700">No transaction yet: it is sent once the payout is executed.</p>
        ) : (
          <ul aria-label="Transactions" className="space-y-2 text-sm">
            {transactions.map((t) => (
              <li
                key={t.id}
                data-tx={t.txHash ?? t.id}
                className="rounded-lg bg-white p-3 shadow-sm ring-1 ring-slate-200"
              >
                <span className="block font-mono text-xs break-all">{t.txHash ?? "not signed yet"}</span>
                <span className="text-xs text-slate-600">
                  {t.status} · {t.confirmations ?? 0} confirmations{t.fee ? ` · fee ${t.fee}` : ""}
                </span>
                {t.explorerUrl && (
                  <a href={t.explorerUrl} rel="noreferrer" target="_blank" className="ml-2 text-xs underline">
                    View on explorer
                  </a>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="timeline-heading" className="space-y-2">
        <h2 id="timeline-heading" className="text-lg font-semibold text-slate-900">
          Timeline
        </h2>
        <ol aria-label="Timeline" className="space-y-1 text-sm">
          {timeline.map((e) => (
            <li key={`${e.at} ${e.what}`} className="flex flex-wrap gap-x-3">
              <span className="font-mono text-xs text-slate-600">{when(e.at)}</span>
              <span>{e.what}</span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
