import { formatUnits } from "viem";
import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import type { Chain } from "@/lib/chains/chains";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { CostSubject } from "./cost-types";

export interface CostReportFilter {
  mode: Mode;
  since: Date;
  chain?: Chain;
  merchantId?: string;
}

interface Sum {
  chain: Chain;
  subject_type: CostSubject;
  subjects: number;
  fee: string;
}

/** How many objects bore a fee, the fees' total and their average per object, in the native coin. */
export interface CostFigure {
  count: number;
  total: string;
  average: string | null;
}

/** Native base units as the coin, exact (18 decimals on EVM, 6 on Tron, 9 on Solana). */
const native = (chain: Chain, raw: bigint) => formatUnits(raw, CHAIN_SPECS[chain].native.decimals);

/**
 * What the service's own transactions cost since a date, from the attributed fees (`outbound_costs`): per chain
 * and per day, the payments, payouts and refunds that bore a fee, the total and the average per object, the
 * installation's own (deployments), and what accepting 1 USDT cost: the fees of the payments costed in the
 * window over the USDT those payments received. Amounts in the chain's native coin.
 */
export async function costReport(db: Db, filter: CostReportFilter) {
  const params = [filter.mode, filter.since, filter.chain ?? null, filter.merchantId ?? null];
  const where =
    `mode = $1 and created_at >= $2 and ($3::text is null or chain = $3) ` +
    `and ($4::text is null or merchant_id = $4)`;
  const [byDay, totals, accepting] = await Promise.all([
    query<Sum & { day: string }>(
      db,
      `select chain, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, subject_type,
              count(distinct coalesce(subject_id, outbound_id))::int as subjects, sum(fee_native)::text as fee
         from outbound_costs where ${where} group by 1, 2, 3 order by 2, 1, 3`,
      params,
    ),
    query<Sum>(
      db,
      `select chain, subject_type, count(distinct coalesce(subject_id, outbound_id))::int as subjects,
              sum(fee_native)::text as fee
         from outbound_costs where ${where} group by 1, 2 order by 1, 2`,
      params,
    ),
    query<{ chain: Chain; fee: string; received: string }>(
      db,
      `with costed as (select chain, subject_id, sum(fee_native) as fee from outbound_costs
                        where ${where} and subject_type = 'payment' group by 1, 2)
       select c.chain, sum(c.fee)::text as fee, sum(p.amount_received_units)::text as received
         from costed c join payments p on p.id = c.subject_id group by 1 order by 1`,
      params,
    ),
  ]);
  const figures = (rows: Sum[], chain: Chain) => {
    const of = (subject: CostSubject): CostFigure => {
      const row = rows.find((r) => r.chain === chain && r.subject_type === subject);
      const fee = BigInt(row?.fee ?? 0);
      const count = row?.subjects ?? 0;
      return { count, total: native(chain, fee), average: count ? native(chain, fee / BigInt(count)) : null };
    };
    return {
      payments: of("payment"),
      deposits: of("deposit"),
      payouts: of("payout"),
      refunds: of("refund"),
      installation: of("installation"),
    };
  };
  const chains = [...new Set(totals.map((t) => t.chain))];
  return {
    object: "cost_report",
    mode: filter.mode,
    since: filter.since.toISOString(),
    chains: chains.map((chain) => {
      const paid = accepting.find((a) => a.chain === chain);
      const received = BigInt(paid?.received ?? 0);
      return {
        chain,
        symbol: CHAIN_SPECS[chain].native.symbol,
        ...figures(totals, chain),
        // Fee per 1.000000 USDT received (amounts are in 6-decimal units).
        accepting_one_usdt: received > 0n ? native(chain, (BigInt(paid!.fee) * 1_000_000n) / received) : null,
      };
    }),
    days: [...new Set(byDay.map((d) => `${d.day} ${d.chain}`))].map((key) => {
      const [day, chain] = key.split(" ") as [string, Chain];
      return { day, chain, ...figures(byDay.filter((d) => d.day === day) as Sum[], chain) };
    }),
  };
}
