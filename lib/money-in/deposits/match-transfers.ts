import { CHAIN_FAMILY, CHAINS } from "@/lib/chains/chains";
import type { TokenTransfer } from "@/lib/chains/chain-adapter";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { WatchScope } from "./watch-scope";

export interface MatchedTransfer extends TokenTransfer {
  paymentId: string;
}

/**
 * Keeps the transfers whose recipient is a watched deposit address: one indexed lookup for the whole
 * batch, so the cost per block follows the number of token transfers, not the number of open payments.
 * Watched: addresses of open payments, and of closed ones within the late-payment window. Addresses of the
 * same key family match on every chain of the family (a payer may pick the wrong EVM network).
 */
export async function matchTransfers(
  db: Db,
  scope: WatchScope,
  transfers: TokenTransfer[],
): Promise<MatchedTransfer[]> {
  if (transfers.length === 0) return [];
  const keys = [...new Set(transfers.map((t) => t.toKey))];
  const family = CHAINS.filter((c) => CHAIN_FAMILY[c] === CHAIN_FAMILY[scope.chain]);
  // A join from the batch's keys to the index keeps this at one index probe per key whatever the table size.
  const rows = await query<{ id: string; watch_key: string }>(
    db,
    `select p.id, p.watch_key from unnest($2::text[]) as k(key)
     join payments p on p.mode = $1 and p.watch_key = k.key
     where p.chain = any($3::text[]) and (p.closed_at is null or p.closed_at > now() - make_interval(secs => $4))`,
    [scope.mode, keys, family, scope.lateWindowMs / 1000],
  );
  if (rows.length === 0) return [];
  const byKey = new Map(rows.map((r) => [r.watch_key, r.id]));
  return transfers.filter((t) => byKey.has(t.toKey)).map((t) => ({ ...t, paymentId: byKey.get(t.toKey)! }));
}
