import Link from "next/link";
import { ExportLink } from "@/components/dashboard/export-link";
import { Pager } from "@/components/dashboard/pager";
import { PaymentsFilters } from "@/components/dashboard/payments-filters";
import { PaymentsTable } from "@/components/dashboard/payments-table";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { loadPaymentsPage } from "@/lib/dashboard/views/payments-list";
import { getDb } from "@/lib/platform/db/client";

export const dynamic = "force-dynamic";

type Query = Record<string, string | string[] | undefined>;
const single = (q: Query) =>
  Object.fromEntries(Object.entries(q).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])) as Record<
    string,
    string | undefined
  >;

/** The selected mode's payments: filters, search, cursor pages (docs/DASHBOARD.md#payments-and-events). */
export default async function PaymentsPage({ searchParams }: { searchParams: Promise<Query> }) {
  const [user, mode, raw] = await Promise.all([requirePageUser("payments:read"), dashboardMode(), searchParams]);
  const query = single(raw);
  const page = await loadPaymentsPage(getDb(), { merchantId: user.merchantId, mode }, query);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="mr-auto text-2xl font-semibold text-slate-900">Payments</h1>
        <ExportLink path="/dashboard/payments" query={query} />
      </div>
      <PaymentsFilters query={query} errors={page.errors} />
      {page.staleCursor ? (
        <p className="text-sm text-slate-700">
          This page of results is no longer available.{" "}
          <Link href="/dashboard/payments" className="underline">
            Start from the newest payments
          </Link>
          .
        </p>
      ) : page.payments.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-sm text-slate-700">
          {page.filtered
            ? "No payments match these filters. Change or clear them to see more."
            : `No ${mode} payments yet. Create one with POST /v1/payments ` +
              `(an API key from API keys) or share a payment link.`}
        </p>
      ) : (
        <PaymentsTable payments={page.payments} />
      )}
      <Pager path="/dashboard/payments" query={query} previous={page.links.previous} next={page.links.next} />
    </div>
  );
}
