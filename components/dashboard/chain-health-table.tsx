import type { Chain } from "@/lib/chains/chains";
import { NETWORK } from "@/lib/money-in/checkout/networks";
import type { ChainHealth, ChainHealthState } from "@/lib/money-in/watch/load-chain-health";

const STATE: Record<ChainHealthState, { label: string; style: string }> = {
  ok: { label: "OK", style: "bg-emerald-100 text-emerald-900" },
  lagging: { label: "Lagging", style: "bg-amber-100 text-amber-900" },
  erroring: { label: "Erroring", style: "bg-red-100 text-red-900" },
  "not watched": { label: "Not watched", style: "bg-slate-100 text-slate-800" },
};

const time = (iso: string | null) => (iso ? `${iso.replace("T", " ").slice(0, 19)} UTC` : "—");

/** Each chain's watcher: state, lag behind the head (blocks or slots), last block applied, last error. */
export function ChainHealthTable({ chains }: { chains: ChainHealth[] }) {
  if (chains.length === 0)
    return <p className="text-sm text-slate-700">No chain is configured in this mode, so none is watched.</p>;
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Chain
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              State
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Lag
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Last block
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {chains.map((c) => (
            <tr key={c.chain} data-chain-health={c.chain} data-state={c.state} className="align-top">
              <th scope="row" className="px-3 py-2 font-medium text-slate-900">
                {NETWORK[c.chain as Chain]?.name ?? c.chain}
                {c.lastError && (
                  <p className="mt-1 max-w-[14rem] text-xs font-normal break-words text-red-800 sm:max-w-md">
                    Last error {time(c.lastErrorAt)}: {c.lastError}
                  </p>
                )}
              </th>
              <td className="px-3 py-2">
                <span className={`rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ${STATE[c.state].style}`}>
                  {STATE[c.state].label}
                </span>
              </td>
              <td className="px-3 py-2 text-right font-mono tabular-nums">{c.lag ?? "—"}</td>
              <td className="px-3 py-2 text-right font-mono tabular-nums" title={`Head seen ${time(c.headSeenAt)}`}>
                {c.processed ?? "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
