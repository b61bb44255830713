import type { ChainFamily } from "@/lib/chains/chains";
import { config } from "@/lib/platform/config/env";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { POOL_INDEX_END, type PoolPurpose } from "@/lib/kernel/chain-ids";
import { deriveAddress, deriveAddressFromXpub } from "./derive-address";
import { countFreeAddresses, POOL_SIZES } from "./deposit-address-pool";
import { liveMnemonic, walletSeed } from "./wallet-seed";

/** Addresses derived and committed per transaction: claims see the first ones without waiting for the rest. */
const CHUNK = 100;

/**
 * How this process derives the pool's addresses, or null where it cannot: sandbox from the sandbox seed;
 * live EVM and Tron from the account xpub, else the live seed; live Solana (hardened) from the seed only.
 */
async function addressDeriver(db: Db, mode: Mode, family: ChainFamily): Promise<((index: number) => string) | null> {
  if (mode === "live") {
    const xpub = family === "solana" ? undefined : config().liveXpubs[family];
    if (xpub && family !== "solana") return (i) => deriveAddressFromXpub(xpub, family, i).address;
    if (!liveMnemonic()) return null;
  }
  const seed = await walletSeed(db, mode);
  return (i) => deriveAddress(seed, family, i).address;
}

/**
 * Tops the (mode, family, purpose) pool up to `target` free addresses, CHUNK per transaction. Each one locks the
 * pool's counter row (so concurrent refills neither overshoot nor derive an index twice), derives the indexes
 * that follow it and advances it with the rows it inserts: a refill that dies or rolls back leaves the counter
 * where its addresses stop, so the pool's indexes stay gap-free. Returns how many were added: 0 when this
 * process cannot derive the pool's addresses (only the seed holder can, for live Solana).
 */
export async function refillDepositAddressPool(
  db: Db,
  mode: Mode,
  family: ChainFamily,
  target?: number,
  purpose: PoolPurpose = "payment",
): Promise<number> {
  const want = target ?? POOL_SIZES[purpose].target;
  const derive = await addressDeriver(db, mode, family);
  if (!derive) return 0;
  let added = 0;
  for (;;) {
    const count = await inTransaction(db, async (tx) => {
      const [counter] = await query<{ next_index: string }>(
        tx,
        `select next_index::text from deposit_index_counters
         where mode = $1 and family = $2 and purpose = $3 for update`,
        [mode, family, purpose],
      );
      const missing = Math.min(want - (await countFreeAddresses(tx, mode, family, want, purpose)), CHUNK);
      if (missing <= 0) return 0;
      const first = Number(counter!.next_index);
      // A range never runs into the next one (lib/kernel/chain-ids.ts): no index serves two purposes.
      if (first + missing > POOL_INDEX_END[purpose])
        throw new Error(`the ${mode} ${family} ${purpose} address range is used up at index ${first}`);
      const indexes = Array.from({ length: missing }, (_, i) => first + i);
      await query(
        tx,
        `insert into deposit_address_pool (mode, family, purpose, derivation_index, address)
         select $1, $2, $5, i, a from unnest($3::bigint[], $4::text[]) as t(i, a)`,
        [mode, family, indexes, indexes.map(derive), purpose],
      );
      await query(
        tx,
        "update deposit_index_counters set next_index = $3 where mode = $1 and family = $2 and purpose = $4",
        [mode, family, first + missing, purpose],
      );
      return missing;
    });
    added += count;
    if (count === 0) return added;
  }
}
