import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

export interface LedgerInconsistency {
  kind: "unbalanced_journal" | "balance_mismatch" | "receivable_mismatch" | "running_balance_mismatch";
  detail: string;
}

/**
 * Proves the maintained balances equal what the journal says: every journal sums to zero, and every
 * balances row equals the sum of its account's entries (and no entries exist without a row), and what the
 * `reorg_receivables` entries say merchants owe equals the open reorg reversals' receivables, and every
 * `available` entry's running balance (`available_after_units`, the balance transactions') is the sum of its
 * chain's entries up to it, so the last one is the balance.
 */
export async function checkLedgerConsistency(db: Db, merchantId?: string): Promise<LedgerInconsistency[]> {
  const problems: LedgerInconsistency[] = [];
  const unbalanced = await query<{ journal_id: string; total: string }>(
    db,
    `select journal_id, sum(amount_units)::text as total from ledger_entries
     where ($1::text is null or merchant_id = $1)
     group by journal_id having sum(amount_units) <> 0`,
    [merchantId ?? null],
  );
  for (const j of unbalanced)
    problems.push({ kind: "unbalanced_journal", detail: `${j.journal_id} sums to ${j.total}` });

  const mismatched = await query<{ merchant_id: string; mode: string; chain: string; stored: string; derived: string }>(
    db,
    `with derived as (
       select merchant_id, mode, chain,
              coalesce(sum(amount_units) filter (where account = 'available'), 0) as available_units,
              coalesce(sum(amount_units) filter (where account = 'reserved'), 0) as reserved_units,
              coalesce(sum(amount_units) filter (where account = 'payouts_in_flight'), 0) as in_flight_units,
              coalesce(sum(amount_units) filter (where account = 'refunds_in_flight'), 0) as refunds_in_flight_units
       from ledger_entries where ($1::text is null or merchant_id = $1) group by merchant_id, mode, chain)
     select coalesce(b.merchant_id, d.merchant_id) as merchant_id, coalesce(b.mode, d.mode) as mode,
            coalesce(b.chain, d.chain) as chain,
            concat_ws('/', b.available_units, b.reserved_units, b.in_flight_units, b.refunds_in_flight_units) as stored,
            concat_ws('/', d.available_units, d.reserved_units, d.in_flight_units, d.refunds_in_flight_units) as derived
     from (select merchant_id, mode, chain, available_units, reserved_units, in_flight_units, refunds_in_flight_units
             from balances where ($1::text is null or merchant_id = $1)) b
     full join derived d using (merchant_id, mode, chain)
     where coalesce(b.available_units, 0) <> coalesce(d.available_units, 0)
        or coalesce(b.reserved_units, 0) <> coalesce(d.reserved_units, 0)
        or coalesce(b.in_flight_units, 0) <> coalesce(d.in_flight_units, 0)
        or coalesce(b.refunds_in_flight_units, 0) <> coalesce(d.refunds_in_flight_units, 0)`,
    [merchantId ?? null],
  );
  for (const m of mismatched)
    problems.push({
      kind: "balance_mismatch",
      detail: `${m.merchant_id}/${m.mode}/${m.chain}: stored ${m.stored}, journal ${m.derived}`,
    });
  const receivables = await query<{ merchant_id: string; mode: string; chain: string; owed: string; open: string }>(
    db,
    `with owed as (select merchant_id, mode, chain, -sum(amount_units) as units from ledger_entries
                   where account = 'reorg_receivables' and ($1::text is null or merchant_id = $1) group by 1, 2, 3),
          open as (select merchant_id, mode, chain, sum(receivable_units) as units from reorg_reversals
                   where settled_at is null and ($1::text is null or merchant_id = $1) group by 1, 2, 3)
     select merchant_id, mode, chain, coalesce(o.units, 0)::text as owed, coalesce(r.units, 0)::text as open
     from owed o full join open r using (merchant_id, mode, chain) where coalesce(o.units, 0) <> coalesce(r.units, 0)`,
    [merchantId ?? null],
  );
  for (const r of receivables)
    problems.push({
      kind: "receivable_mismatch",
      detail: `${r.merchant_id}/${r.mode}/${r.chain}: reorg_receivables entries ${r.owed}, open reversals ${r.open}`,
    });
  const running = await query<{ merchant_id: string; mode: string; chain: string; id: string; stored: string }>(
    db,
    `select merchant_id, mode, chain, id::text, stored::text, running::text from (
       select merchant_id, mode, chain, id, available_after_units as stored,
              sum(amount_units) over (partition by merchant_id, mode, chain order by id) as running
       from ledger_entries where account = 'available' and ($1::text is null or merchant_id = $1)) r
     where stored is distinct from running order by id limit 20`,
    [merchantId ?? null],
  );
  for (const r of running)
    problems.push({
      kind: "running_balance_mismatch",
      detail: `${r.merchant_id}/${r.mode}/${r.chain}: ledger entry ${r.id} says available after it was ${r.stored}`,
    });
  return problems;
}
