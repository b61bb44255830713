import Link from "next/link";
import { CreateLinkForm } from "@/components/dashboard/create-link-form";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { config } from "@/lib/platform/config/env";
import { listDashboardLinks } from "@/lib/dashboard/actions/payment-links";
import { getDb } from "@/lib/platform/db/client";
import { can } from "@/lib/identity/users/roles";
import { createLink } from "./actions";
import { cn } from "@/components/class-names";

export const dynamic = "force-dynamic";

const STATES = ["active", "expired"] as const;

/** Payment links of the selected mode, active or expired (a filter), 20 a page; links:write may create one. */
export default async function LinksPage({
  searchParams,
}: {
  searchParams: Promise<{ state?: string; starting_after?: string }>;
}) {
  const [user, mode, sp] = await Promise.all([requirePageUser("links:read"), dashboardMode(), searchParams]);
  const state = sp.state === "expired" ? "expired" : "active";
  const { links, hasMore } = await listDashboardLinks(
    getDb(),
    { merchantId: user.merchantId, mode },
    { state, starting_after: sp.starting_after, limit: 20 },
    config().publicBaseUrl,
  );
  const last = links[links.length - 1];
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Payment links</h1>
      {can(user.role, "links:write") && <CreateLinkForm action={createLink} />}
      <nav aria-label="Link state" className="flex gap-2 text-sm">
        {STATES.map((s) => (
          <Link
            key={s}
            href={`/dashboard/links?state=${s}`}
            aria-current={s === state ? "page" : undefined}
            className={cn(
              "rounded-md px-3 py-1.5 font-medium",
              s === state ? "bg-slate-900 text-white" : "border border-slate-300 text-slate-800",
            )}
          >
            {s === "active" ? "Active" : "Expired"}
          </Link>
        ))}
      </nav>
      {links.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-sm text-slate-700">
          {state === "active"
            ? `No active ${mode} links. Create one above, ` +
              `or with POST /v1/payment-links; each stays active for 30 minutes.`
            : `No expired ${mode} links yet.`}
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          {links.map((l) => (
            <li key={l.id} data-link={l.id} className="space-y-1 px-4 py-3 text-sm">
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <span className="font-mono font-medium tabular-nums">{l.amount} USDT</span>
                <span className="min-w-0 break-words text-slate-700">{l.description ?? "no description"}</span>
              </div>
              <a href={l.url} className="block break-all font-mono text-xs text-slate-800 underline">
                {l.url}
              </a>
              <p className="text-xs text-slate-600">
                {l.id} · {l.active ? "expires" : "expired"} {l.expires_at.replace("T", " ").slice(0, 16)} UTC
              </p>
            </li>
          ))}
        </ul>
      )}
      {hasMore && last && (
        <Link
          href={`/dashboard/links?state=${state}&starting_after=${last.id}`}
          className="text-sm text-slate-800 underline"
        >
          Older links
        </Link>
      )}
    </div>
  );
}
