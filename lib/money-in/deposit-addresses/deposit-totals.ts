import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { DepositTotals } from "./deposit-address-row";

/**
 * What each of these deposit addresses received (deposits still on the chain: pending, credited or ignored) and
 * had credited, from its deposits (one index range scan per address).
 */
export async function depositTotals(db: Db, ids: string[]): Promise<Map<string, DepositTotals>> {
  const totals = new Map(ids.map((id) => [id, { receivedUnits: 0n, creditedUnits: 0n }]));
  if (ids.length === 0) return totals;
  const rows = await query<{ id: string; received: string; credited: string }>(
    db,
    `select deposit_address_id as id,
       coalesce(sum(amount_units) filter (where status <> 'orphaned'), 0)::text as received,
       coalesce(sum(amount_units) filter (where status = 'credited'), 0)::text as credited
     from deposits where deposit_address_id = any($1::text[]) group by deposit_address_id`,
    [ids],
  );
  for (const r of rows) totals.set(r.id, { receivedUnits: BigInt(r.received), creditedUnits: BigInt(r.credited) });
  return totals;
}
