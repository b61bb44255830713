import Link from "next/link";
import { ExportLink } from "@/components/dashboard/export-link";
import { RefundList } from "@/components/dashboard/refund-list";
import { RefundPolicyForm } from "@/components/dashboard/refund-policy-form";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { can } from "@/lib/identity/users/roles";
import { getRefundPolicy, serializeRefundPolicy } from "@/lib/money-out/refunds/refund-policy";
import { REFUND_STATUSES, type RefundStatus } from "@/lib/money-out/refunds/schemas";
import { getDb } from "@/lib/platform/db/client";
import { listDashboardRefunds } from "@/lib/dashboard/actions/dashboard-refunds";
import { setRefundPolicyAction } from "./actions";

export const dynamic = "force-dynamic";

/** The refund policy, then every refund of the selected mode, newest first, by status (docs/DASHBOARD.md#refunds). */
export default async function RefundsPage({
  searchParams,
}: {
  searchParams: Promise<{ status?: string; after?: string }>;
}) {
  const [user, mode, query] = await Promise.all([requirePageUser("refunds:read"), dashboardMode(), searchParams]);
  const status = (REFUND_STATUSES as readonly string[]).includes(query.status ?? "")
    ? (query.status as RefundStatus)
    : undefined;
  const [page, policy] = await Promise.all([
    listDashboardRefunds(
      getDb(),
      { merchantId: user.merchantId, mode },
      { status, startingAfter: query.after?.startsWith("re_") ? query.after : undefined },
    ),
    getRefundPolicy(getDb(), user.merchantId, mode).then(serializeRefundPolicy),
  ]);
  const filter = (s: string | undefined, label: string) => (
    <Link
      key={label}
      href={s ? `/dashboard/refunds?status=${s}` : "/dashboard/refunds"}
      aria-current={status === s ? "page" : undefined}
      className={
        "rounded px-2 py-1 text-sm text-slate-800 aria-[current=page]:bg-slate-900 aria-[current=page]:text-white"
      }
    >
      {label}
    </Link>
  );
  const last = page.refunds.at(-1);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="mr-auto text-2xl font-semibold text-slate-900">Refunds</h1>
        <ExportLink path="/dashboard/refunds" query={{ status }} />
      </div>
      <p className="text-sm text-slate-700">
        Refund a payment from its page. A claim link lets the payer choose the address.
      </p>
      <section
        aria-labelledby="refund-policy-heading"
        className="space-y-2 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
      >
        <h2 id="refund-policy-heading" className="text-lg font-semibold text-slate-900">
          Refund policy ({mode})
        </h2>
        <p className="text-sm text-slate-700" data-testid="refund-policy">
          Overpayments: {policy.overpaid_above === null ? "kept" : `refunded above ${policy.overpaid_above} USDT`} ·
          Late payments: {policy.refund_late_payments ? "refunded" : "kept"}. Refunds it opens wait for the payer&apos;s
          address on a claim page.
        </p>
        {can(user.role, "refunds:write") && (
          <RefundPolicyForm
            action={setRefundPolicyAction}
            overpaidAbove={policy.overpaid_above}
            refundLatePayments={policy.refund_late_payments}
          />
        )}
      </section>
      <nav aria-label="Refund status" className="flex flex-wrap gap-1">
        {filter(undefined, "All")}
        {REFUND_STATUSES.map((s) => filter(s, s.replaceAll("_", " ")))}
      </nav>
      <RefundList refunds={page.refunds} label="Refunds" />
      {page.hasMore && last && (
        <Link
          href={`/dashboard/refunds?${status ? `status=${status}&` : ""}after=${last.id}`}
          className="text-sm underline"
        >
          Older refunds
        </Link>
      )}
    </div>
  );
}
