import { NETWORK } from "@/lib/money-in/checkout/networks";
import type { Chain } from "@/lib/chains/chains";

type Balance = { chain: string; available: string; reserved: string; in_flight: string };

/** One card per chain: available, reserved (detected, not yet confirmed) and in flight (payouts under way). */
export function BalancesGrid({ balances, live }: { balances: Balance[]; live: boolean }) {
  if (balances.length === 0)
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-6 text-sm text-slate-700">
        {live
          ? "No live chain is configured. Set a chain's RPC URL (README, Configuration) to receive live payments."
          : "No sandbox chain is running. Start the service with SANDBOX_CHAINS=on."}
      </p>
    );
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {balances.map((b) => (
        <li
          key={b.chain}
          data-chain={b.chain}
          className="rounded-lg bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200"
        >
          <h3 className="font-medium text-slate-900">{NETWORK[b.chain as Chain]?.name ?? b.chain}</h3>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-600">Available</dt>
            <dd className="text-right font-mono tabular-nums">{b.available} USDT</dd>
            <dt className="text-slate-600">Reserved</dt>
            <dd className="text-right font-mono tabular-nums">{b.reserved} USDT</dd>
            <dt className="text-slate-600">In flight</dt>
            <dd className="text-right font-mono tabular-nums">{b.in_flight} USDT</dd>
          </dl>
          <a
            href={`/dashboard/balance-transactions?chain=${b.chain}`}
            className="mt-2 inline-block text-sm text-slate-800 underline underline-offset-2"
          >
            Balance history
          </a>
        </li>
      ))}
    </ul>
  );
}
