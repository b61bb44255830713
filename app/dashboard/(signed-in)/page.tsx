import { BalancesGrid } from "@/components/dashboard/balances-grid";
import { ChainHealthTable } from "@/components/dashboard/chain-health-table";
import { VolumeSection } from "@/components/dashboard/volume-section";
import { RecentPayments } from "@/components/dashboard/recent-payments";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { loadHome } from "@/lib/dashboard/views/load-home";
import { getDb } from "@/lib/platform/db/client";

export const dynamic = "force-dynamic";

/** The dashboard home, in the selected mode: balances per chain, 30-day volume, latest payments, chain health. */
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
      <section aria-labelledby="volume-heading">
        <h2 id="volume-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Confirmed volume
        </h2>
        <VolumeSection days={home.volume} mode={mode} />
      </section>
      <section aria-labelledby="payments-heading">
        <h2 id="payments-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Recent payments
        </h2>
        <RecentPayments payments={home.payments} />
      </section>
      <section aria-labelledby="chains-heading">
        <h2 id="chains-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Chain health
        </h2>
        <ChainHealthTable chains={home.chains} />
      </section>
    </div>
  );
}
