import Link from "next/link";
import type { ReactNode } from "react";
import type { Mode } from "@/lib/kernel/mode";
import { can, type Permission } from "@/lib/identity/users/roles";
import type { SessionUser } from "@/lib/identity/users/sessions";
import { SessionKeepAlive } from "./keep-alive";
import { NavLinks } from "./nav-links";
import { cn } from "@/components/class-names";

const button = "rounded-md px-3 py-1.5 text-sm font-medium";

/** The dashboard's pages, in the order of the nav; an entry with a permission shows only to roles that have it. */
const NAV: { href: string; label: string; permission?: Permission }[] = [
  { href: "/dashboard", label: "Home" },
  { href: "/dashboard/payments", label: "Payments" },
  { href: "/dashboard/links", label: "Payment links" },
  { href: "/dashboard/payouts", label: "Payouts" },
  { href: "/dashboard/refunds", label: "Refunds" },
  { href: "/dashboard/balance-transactions", label: "Balance history", permission: "balances:read" },
  { href: "/dashboard/statement", label: "Statement", permission: "payouts:read" },
  { href: "/dashboard/events", label: "Events" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/keys", label: "API keys" },
  { href: "/dashboard/team", label: "Team" },
  { href: "/dashboard/security", label: "Security" },
  { href: "/dashboard/costs", label: "Costs", permission: "costs:read" },
  { href: "/dashboard/audit", label: "Audit log", permission: "audit:read" },
];

/**
 * The frame of every signed-in page: merchant and user, the sandbox / live switch (always visible), the
 * sign-out buttons, and a banner on sandbox data.
 */
export function DashboardShell({
  user,
  mode,
  actions,
  children,
}: {
  user: SessionUser;
  mode: Mode;
  actions: {
    switchMode: (f: FormData) => Promise<void>;
    signOut: () => Promise<void>;
    signOutAll: () => Promise<void>;
  };
  children: ReactNode;
}) {
  return (
    <div className="min-h-screen bg-slate-50">
      <SessionKeepAlive />
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-3 px-4 py-3">
          <Link href="/dashboard" className="mr-auto min-w-0 truncate font-semibold text-slate-900">
            {user.merchantName}
          </Link>
          <search className="order-last w-full sm:order-none sm:w-64">
            <form action="/dashboard/search" method="get" className="w-full">
              <label htmlFor="global-search" className="sr-only">
                Search payments, payouts and refunds
              </label>
              <input
                id="global-search"
                name="q"
                type="search"
                placeholder="Search: id, address, tx hash, amount…"
                className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-base sm:text-sm"
              />
            </form>
          </search>
          <form action={actions.switchMode} aria-label="Mode" className="flex rounded-lg bg-slate-100 p-0.5">
            {(["sandbox", "live"] as const).map((m) => (
              <button
                key={m}
                type="submit"
                name="mode"
                value={m}
                aria-pressed={mode === m}
                className={cn(
                  button,
                  mode === m
                    ? m === "sandbox"
                      ? "bg-amber-400 text-amber-950"
                      : "bg-slate-900 text-white"
                    : "text-slate-700",
                )}
              >
                {m === "sandbox" ? "Sandbox" : "Live"}
              </button>
            ))}
          </form>
        </div>
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-2 px-4 pb-3 text-sm text-slate-600">
          <span className="mr-auto min-w-0 truncate">
            {user.email} · {user.role}
          </span>
          <form action={actions.signOut}>
            <button type="submit" className={`${button} border border-slate-300 text-slate-800`}>
              Sign out
            </button>
          </form>
          <form action={actions.signOutAll}>
            <button type="submit" className={`${button} border border-slate-300 text-slate-800`}>
              Sign out of all sessions
            </button>
          </form>
        </div>
      </header>
      {mode === "sandbox" && (
        <p
          role="note"
          className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm font-medium text-amber-900"
        >
          Sandbox data — test networks only, no real money moves.
        </p>
      )}
      <nav
        aria-label="Dashboard"
        className="mx-auto flex max-w-5xl flex-wrap gap-x-4 gap-y-2 px-4 pt-4 text-sm font-medium"
      >
        <NavLinks
          items={NAV.filter((item) => !item.permission || can(user.role, item.permission)).map(({ href, label }) => ({
            href,
            label,
          }))}
        />
      </nav>
      <main className="mx-auto max-w-5xl px-4 py-6">{children}</main>
    </div>
  );
}
