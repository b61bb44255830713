import Link from "next/link";
import { ExportLink } from "@/components/dashboard/export-link";
import { CreatePayoutForm } from "@/components/dashboard/create-payout-form";
import { PayoutList } from "@/components/dashboard/payout-list";
import { PolicyForm } from "@/components/dashboard/policy-form";
import { ReviewButtons } from "@/components/dashboard/review-buttons";
import { DomainError } from "@/lib/kernel/domain-error";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { enabledChains } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";
import { listPayouts } from "@/lib/money-out/payouts/list-payouts";
import { getPayoutPolicy, serializePolicy } from "@/lib/money-out/payouts/payout-policy";
import { PAYOUT_STATUSES, type PayoutStatus } from "@/lib/money-out/payouts/schemas";
import { can } from "@/lib/identity/users/roles";
import { createPayoutAction, reviewPayoutAction, setPolicyAction } from "./actions";

export const dynamic = "force-dynamic";
const PAGE_SIZE = 20;

/**
 * Payouts of the selected mode: the review queue, the policy, a new payout, and the list (docs/DASHBOARD.md#payouts).
 */
export default async function PayoutsPage({
  searchParams,
}: {
  searchParams: Promise<{ status?: string; starting_after?: string }>;
}) {
  const [user, mode, params] = await Promise.all([requirePageUser("payouts:read"), dashboardMode(), searchParams]);
  const db = getDb();
  const owner = { merchantId: user.merchantId, mode };
  const status = PAYOUT_STATUSES.includes(params.status as PayoutStatus) ? (params.status as PayoutStatus) : undefined;
  const page = await listPayouts(db, owner, { limit: PAGE_SIZE, status, starting_after: params.starting_after }).catch(
    (err) => {
      if (err instanceof DomainError) return { rows: [], hasMore: false }; // a cursor that is not this mode's payout
      throw err;
    },
  );
  const [queue, policy] = await Promise.all([
    listPayouts(db, owner, { limit: 50, status: "review_required" }),
    getPayoutPolicy(db, user.merchantId, mode).then(serializePolicy),
  ]);
  const approver = can(user.role, "payouts:approve");
  const chains = enabledChains(mode);
  const last = page.rows.at(-1);
  const query = (extra: Record<string, string>) => new URLSearchParams({ ...(status ? { status } : {}), ...extra });
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="mr-auto text-2xl font-semibold text-slate-900">Payouts</h1>
        <ExportLink path="/dashboard/payouts" query={{ status }} />
      </div>

      <section aria-labelledby="review-heading" className="space-y-3">
        <h2 id="review-heading" className="text-lg font-semibold text-slate-900">
          Review queue
        </h2>
        {queue.rows.length === 0 ? (
          <p className="text-sm text-slate-700">No payout waits for review.</p>
        ) : (
          <PayoutList
            rows={queue.rows}
            label="Payouts awaiting review"
            extra={(p) =>
              approver ? <ReviewButtons id={p.id} action={reviewPayoutAction} next="/dashboard/payouts" /> : null
            }
          />
        )}
      </section>

      <section
        aria-labelledby="policy-heading"
        className="space-y-2 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
      >
        <h2 id="policy-heading" className="text-lg font-semibold text-slate-900">
          Payout policy ({mode})
        </h2>
        <p className="text-sm text-slate-700" data-testid="policy">
          Review above: {policy.review_above ? `${policy.review_above} USDT` : "no limit"} · New destinations:{" "}
          {policy.review_new_destinations ? "reviewed" : "not reviewed"}
        </p>
        {approver && (
          <PolicyForm
            action={setPolicyAction}
            reviewAbove={policy.review_above}
            reviewNewDestinations={policy.review_new_destinations}
            allowSelfApproval={policy.allow_self_approval}
          />
        )}
      </section>

      {can(user.role, "payouts:write") &&
        (chains.length ? (
          <CreatePayoutForm action={createPayoutAction} chains={chains} />
        ) : (
          <p className="text-sm text-slate-700">
            No {mode} chain is enabled on this service, so no payout can be made.
          </p>
        ))}

      <section aria-labelledby="all-heading" className="space-y-3">
        <h2 id="all-heading" className="text-lg font-semibold text-slate-900">
          All payouts
        </h2>
        <form method="get" className="flex flex-wrap items-end gap-2">
          <label className="text-sm text-slate-800">
            Status
            <select
              name="status"
              defaultValue={status ?? ""}
              className="mt-1 block rounded border border-slate-300 px-2 py-1.5 text-sm"
            >
              <option value="">Any</option>
              {PAYOUT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium">
            Filter
          </button>
        </form>
        {page.rows.length === 0 ? (
          <p className="text-sm text-slate-700">
            {status ? `No ${status} payouts.` : `No ${mode} payouts yet. Create one above, or with POST /v1/payouts.`}
          </p>
        ) : (
          <PayoutList rows={page.rows} label="Payouts" />
        )}
        <div className="flex gap-4 text-sm">
          {params.starting_after && (
            <Link href={`/dashboard/payouts?${query({})}`} className="underline">
              First page
            </Link>
          )}
          {page.hasMore && last && (
            <Link href={`/dashboard/payouts?${query({ starting_after: last.id })}`} className="underline">
              Next page
            </Link>
          )}
        </div>
      </section>
    </div>
  );
}
