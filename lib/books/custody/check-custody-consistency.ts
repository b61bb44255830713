import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";

export interface CustodyInconsistency {
  kind: "unbalanced_journal" | "in_flight_mismatch";
  detail: string;
}

/**
 * Proves the custody books hold together (docs/CUSTODY.md, "Reconciliation"): every journal sums to zero per
 * asset, and what `in_flight` holds per chain and asset is exactly the amounts of the intents signed and not yet
 * confirmed, reverted or given up (the outbound journal's own view; energy delegations move no coin).
 */
export async function checkCustodyConsistency(db: Db, mode?: Mode): Promise<CustodyInconsistency[]> {
  const problems: CustodyInconsistency[] = [];
  const unbalanced = await query<{ journal_id: string; asset: string; total: string }>(
    db,
    `select journal_id, asset, sum(amount)::text as total from custody_entries where ($1::text is null or mode = $1)
     group by journal_id, asset having sum(amount) <> 0 order by journal_id, asset`,
    [mode ?? null],
  );
  for (const j of unbalanced)
    problems.push({ kind: "unbalanced_journal", detail: `${j.journal_id} ${j.asset} sums to ${j.total}` });

  const inFlight = await query<{ mode: string; chain: string; asset: string; books: string; open: string }>(
    db,
    `with books as (select mode, chain, asset, sum(amount) as units from custody_entries
                    where account = 'in_flight' and ($1::text is null or mode = $1) group by 1, 2, 3),
          open as (select mode, chain, case asset when 'token' then 'usdt' else 'native' end as asset,
                          sum(raw_amount) as units
                   from outbound_transactions where status in ('signed','broadcast','mined') and asset <> 'stake'
                         and ($1::text is null or mode = $1)
                   group by 1, 2, 3)
     select mode, chain, asset, coalesce(b.units, 0)::text as books, coalesce(o.units, 0)::text as open
     from books b full join open o using (mode, chain, asset) where coalesce(b.units, 0) <> coalesce(o.units, 0)`,
    [mode ?? null],
  );
  for (const f of inFlight)
    problems.push({
      kind: "in_flight_mismatch",
      detail: `${f.mode}/${f.chain} ${f.asset}: in_flight ${f.books}, open signed intents ${f.open}`,
    });
  return problems;
}
