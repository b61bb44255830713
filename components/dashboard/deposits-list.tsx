import { NETWORK } from "@/lib/money-in/checkout/networks";
import type { Chain } from "@/lib/chains/chains";
import { StatusBadge, UtcTime } from "./status-badge";

type Deposit = {
  id: string;
  chain: Chain;
  kind: string;
  status: string;
  tx_hash: string;
  block: number;
  from: string | null;
  amount: string;
  at: string;
  explorer_url: string | null;
};

/** The transfers seen to the payment's address, each with its transaction (an explorer link in live mode). */
export function DepositsList({ deposits }: { deposits: Deposit[] }) {
  if (deposits.length === 0)
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-4 text-sm text-slate-700">
        No transfer seen yet. Once the payer sends USDT to the deposit address, it appears here.
      </p>
    );
  return (
    <ul className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      {deposits.map((d) => (
        <li key={d.id} data-deposit={d.id} className="space-y-1 px-4 py-3 text-sm">
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="font-mono font-medium tabular-nums">{d.amount} USDT</span>
            <StatusBadge status={d.status} />
            <span className="text-slate-600">
              {NETWORK[d.chain]?.name ?? d.chain}, block {d.block}
              {d.kind === "wrong_network" ? " (another network: not counted toward this payment)" : ""}
            </span>
          </p>
          <p className="break-all font-mono text-xs" data-testid="deposit-tx">
            {d.explorer_url ? (
              <a href={d.explorer_url} target="_blank" rel="noreferrer noopener" className="underline">
                {d.tx_hash}
              </a>
            ) : (
              d.tx_hash
            )}
          </p>
          <p className="break-all text-xs text-slate-600">
            {d.from ? `From ${d.from} · ` : ""}
            <UtcTime iso={d.at} />
          </p>
        </li>
      ))}
    </ul>
  );
}
