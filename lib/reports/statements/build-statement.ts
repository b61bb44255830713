import { formatUnits } from "viem";
import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import { type Chain, enabledChains } from "@/lib/chains/chains";
import { formatAmount } from "@/lib/kernel/amount";
import type { Mode } from "@/lib/kernel/mode";
import { PAYOUT_COLUMNS, toPayoutRow } from "@/lib/money-out/payouts/payout-row";
import { serializePayout } from "@/lib/money-out/payouts/serialize-payout";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import {
  BALANCE_TRANSACTION_TYPES,
  type BalanceTransactionType,
} from "../balance-transactions/balance-transaction-object";
import {
  BALANCE_ENTRIES,
  BALANCE_ENTRIES_FROM,
  type EntryRow,
  toBalanceTransaction,
} from "../balance-transactions/list-balance-transactions";
import {
  STATEMENT_PAYOUTS_LIMIT,
  type StatementChain,
  type StatementObject,
  type StatementQuery,
} from "./statement-object";

type Owner = { merchantId: string; mode: Mode };
const COST_SUBJECTS = { payments: "payment", deposits: "deposit", payouts: "payout", refunds: "refund" } as const;

/**
 * A period's statement per chain (docs/API.md#statements), from the ledger's `available` entries booked in
 * [from, to): the opening and closing balances are the sums of the entries before each bound, so the opening
 * balance plus the period's totals is the closing balance to the unit, and a period ending now closes at
 * `available`. Network costs are what `outbound_costs` attributes to the merchant in the period.
 */
export async function buildStatement(db: Db, owner: Owner, q: StatementQuery): Promise<StatementObject> {
  const chains = q.chain ? [q.chain] : enabledChains(owner.mode);
  const values = [owner.merchantId, owner.mode, chains, q.from, q.to];
  const [bounds, totals, costs] = await Promise.all([
    query<{ chain: Chain; opening: string; closing: string }>(
      db,
      `select chain, coalesce(sum(amount_units) filter (where created_at < $4), 0)::text as opening,
              coalesce(sum(amount_units) filter (where created_at < $5), 0)::text as closing
         from ledger_entries where merchant_id = $1 and mode = $2 and account = 'available' and chain = any($3)
        group by chain`,
      values,
    ),
    query<{ chain: Chain; type: BalanceTransactionType; count: number; total: string }>(
      db,
      `select e.chain, t.type, count(*)::int as count, sum(e.amount_units)::text as total ${BALANCE_ENTRIES_FROM}
         and e.chain = any($3) and e.created_at >= $4 and e.created_at < $5 group by 1, 2`,
      values,
    ),
    query<{ chain: Chain; subject_type: string; count: number; total: string }>(
      db,
      `select chain, subject_type, count(distinct coalesce(subject_id, outbound_id))::int as count,
              sum(fee_native)::text as total
         from outbound_costs where merchant_id = $1 and mode = $2 and chain = any($3)
          and created_at >= $4 and created_at < $5 group by 1, 2`,
      values,
    ),
  ]);
  const payouts = await payoutsOf(db, owner, q, chains);
  return {
    object: "statement",
    from: q.from.toISOString(),
    to: q.to.toISOString(),
    chains: chains.map((chain): StatementChain => {
      const bound = bounds.find((b) => b.chain === chain);
      const mine = totals.filter((t) => t.chain === chain);
      const sumOf = (type: BalanceTransactionType) => BigInt(mine.find((t) => t.type === type)?.total ?? 0);
      const cost = (subject: string) => costs.find((c) => c.chain === chain && c.subject_type === subject);
      const coin = (raw: bigint) => formatUnits(raw, CHAIN_SPECS[chain].native.decimals);
      const figures = Object.fromEntries(
        Object.entries(COST_SUBJECTS).map(([name, subject]) => {
          const c = cost(subject);
          return [name, { count: c?.count ?? 0, total: coin(BigInt(c?.total ?? 0)) }];
        }),
      ) as Record<keyof typeof COST_SUBJECTS, { count: number; total: string }>;
      const costTotal = Object.values(COST_SUBJECTS).reduce((s, subject) => s + BigInt(cost(subject)?.total ?? 0), 0n);
      const listed = payouts.filter((p) => p.chain === chain);
      return {
        chain,
        opening_balance: formatAmount(BigInt(bound?.opening ?? 0)),
        closing_balance: formatAmount(BigInt(bound?.closing ?? 0)),
        totals: Object.fromEntries(BALANCE_TRANSACTION_TYPES.map((t) => [t, formatAmount(sumOf(t))])) as Record<
          BalanceTransactionType,
          string
        >,
        transactions: mine.reduce((n, t) => n + t.count, 0),
        fees: formatAmount(0n),
        network_costs: { symbol: CHAIN_SPECS[chain].native.symbol, ...figures, total: coin(costTotal) },
        payouts: listed.slice(0, STATEMENT_PAYOUTS_LIMIT),
        has_more_payouts: listed.length > STATEMENT_PAYOUTS_LIMIT,
      };
    }),
  };
}

/** The payouts created in the period (up to the limit and one more per chain), each with its balance transactions. */
async function payoutsOf(db: Db, owner: Owner, q: StatementQuery, chains: Chain[]) {
  const rows = await query(
    db,
    `select ${PAYOUT_COLUMNS} from (
       select ${PAYOUT_COLUMNS}, row_number() over (partition by chain order by created_at, id) as n from payouts
        where merchant_id = $1 and mode = $2 and chain = any($3) and created_at >= $4 and created_at < $5) p
      where n <= $6 order by created_at, id`,
    [owner.merchantId, owner.mode, chains, q.from, q.to, STATEMENT_PAYOUTS_LIMIT + 1],
  );
  const payouts = rows.map(toPayoutRow);
  const entries = await query<EntryRow>(
    db,
    `${BALANCE_ENTRIES} and e.cause_type = 'payout' and e.cause_id = any($3) order by e.id`,
    [owner.merchantId, owner.mode, payouts.map((p) => p.id)],
  );
  return payouts.map((p) => ({
    ...serializePayout(p),
    balance_transactions: entries.filter((e) => e.source === p.id).map(toBalanceTransaction),
  }));
}
