import type { WatchedAddress } from "@/lib/chains/chain-adapter";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { WatchScope } from "./watch-scope";

/**
 * The deposit addresses an address-scanning adapter (Solana) must check on this chain: open payments and
 * closed ones within the late-payment window, and every permanent deposit address (which is why that mode's cost
 * grows with them: SOLANA_DETECTION=blocks reads each slot once instead), each with the raw sum and transaction
 * ids already recorded.
 */
export async function watchedAddresses(db: Db, scope: WatchScope): Promise<WatchedAddress[]> {
  const rows = await query<{ watch_key: string; recorded: string; txs: string[] }>(
    db,
    `select p.watch_key, coalesce(sum(d.raw_amount), 0)::text as recorded,
       coalesce(array_agg(d.tx_hash) filter (where d.tx_hash is not null), '{}') as txs
     from payments p
     left join deposits d on d.payment_id = p.id and d.chain = p.chain and d.status <> 'orphaned'
     where p.mode = $1 and p.chain = $2 and p.watch_key is not null
       and (p.closed_at is null or p.closed_at > now() - make_interval(secs => $3))
     group by p.id, p.watch_key
     union all
     select a.watch_key, coalesce(sum(d.raw_amount), 0)::text,
       coalesce(array_agg(d.tx_hash) filter (where d.tx_hash is not null), '{}')
     from deposit_addresses a
     left join deposits d on d.deposit_address_id = a.id and d.chain = a.chain and d.status <> 'orphaned'
     where a.mode = $1 and a.chain = $2
     group by a.id, a.watch_key`,
    [scope.mode, scope.chain, scope.lateWindowMs / 1000],
  );
  return rows.map((r) => ({ key: r.watch_key, recordedRaw: BigInt(r.recorded), recordedTx: new Set(r.txs) }));
}
