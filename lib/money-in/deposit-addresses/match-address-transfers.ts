import type { TokenTransfer } from "@/lib/chains/chain-adapter";
import { CHAIN_FAMILY } from "@/lib/chains/chains";
import type { WatchScope } from "@/lib/money-in/deposits/watch-scope";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/** A transfer to a deposit address, with the address's owner. */
export interface AddressTransfer extends TokenTransfer {
  depositAddressId: string;
  merchantId: string;
  address: string;
  disabled: boolean;
}

/**
 * Keeps the transfers whose recipient is one of the mode's deposit addresses of the chain's family (a transfer
 * on another chain of the family counts there), active or disabled: one probe of the watch-key index per
 * distinct recipient of the batch, so the cost follows the block's transfers, not the number of addresses.
 */
export async function matchAddressTransfers(
  db: Db,
  scope: WatchScope,
  transfers: TokenTransfer[],
): Promise<AddressTransfer[]> {
  if (transfers.length === 0) return [];
  const keys = [...new Set(transfers.map((t) => t.toKey))];
  const rows = await query<{ id: string; watch_key: string; merchant_id: string; address: string; status: string }>(
    db,
    `select a.id, a.watch_key, a.merchant_id, a.address, a.status from unnest($2::text[]) as k(key)
     join deposit_addresses a on a.mode = $1 and a.watch_key = k.key
     where a.family = $3`,
    [scope.mode, keys, CHAIN_FAMILY[scope.chain]],
  );
  if (rows.length === 0) return [];
  const byKey = new Map(rows.map((r) => [r.watch_key, r]));
  return transfers.flatMap((t) => {
    const a = byKey.get(t.toKey);
    return a
      ? [
          {
            ...t,
            depositAddressId: a.id,
            merchantId: a.merchant_id,
            address: a.address,
            disabled: a.status === "disabled",
          },
        ]
      : [];
  });
}
