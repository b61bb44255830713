import { BalancesGrid } from "@/components/dashboard/balances-grid";
import { RecentPayments } from "@/components/dashboard/recent-payments";
import { requirePageUser } from "@/lib/auth/guard";
import { dashboardMode } from "@/lib/auth/mode";
import { loadHome } from "@/lib/dashboard/load-home";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** The dashboard home: balances per chain and the latest payments, in the selected mode. */
export default async function DashboardHome() {
  const [user, mode] = await Promise.all([requirePageUser("balances:read"), dashboardMode()]);
  const home = await loadHome(getDb(), { merchantId: user.merchantId, mode });
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold text-slate-900">Home</h1>
      <section aria-labelledby="balances-heading">
        <h2 id="balances-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Balances
        </h2>
        <BalancesGrid balances={home.balances} live={mode === "live"} />
      </section>
      <section aria-labelledby="payments-heading">
        <h2 id="payments-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Recent payments
        </h2>
        <RecentPayments payments={home.payments} />
      </section>
    </div>
  );
}
