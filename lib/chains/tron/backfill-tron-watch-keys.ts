import type pg from "pg";
import { tronToEvmHex } from "@/lib/chains/addresses/tron-address";

/**
 * Tron payments created before chain watching need their watch key, which SQL cannot decode (migration 0009):
 * a Tron address's key is its 0x-hex form (connect/watch-key.ts).
 */
export async function backfillTronWatchKeys(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ id: string; deposit_address: string }>(
    "select id, deposit_address from payments " +
      "where chain = 'tron' and deposit_address is not null and watch_key is null",
  );
  for (const row of rows)
    await client.query("update payments set watch_key = $2 where id = $1", [row.id, tronToEvmHex(row.deposit_address)]);
}
