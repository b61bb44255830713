import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import type { Mode } from "@/lib/kernel/mode";
import { deriveAddress } from "./derive-address";
import { liveMnemonic, walletSeed } from "./wallet-seed";

/** The refill tops the pool up to this many unallocated addresses… */
export const SOLANA_POOL_TARGET = 500;
/** …and a web allocation that leaves fewer than this asks for a refill at once (besides the minutely one). */
export const SOLANA_POOL_LOW_WATER = 250;
export const REFILL_JOB_KEY = "refill_solana_address_pool";

/**
 * Takes one unallocated pooled address for `paymentId` in the caller's transaction (skip locked: concurrent
 * takers never wait for, nor share, one row). Null when the pool is empty. Leaving it below the low-water mark
 * enqueues the refill in the same transaction.
 */
export async function takePooledSolanaAddress(
  db: Db,
  mode: Mode,
  paymentId: string,
): Promise<{ address: string; index: number } | null> {
  const [taken] = await query<{ address: string; derivation_index: string }>(
    db,
    `update solana_address_pool set payment_id = $2, allocated_at = now()
     where (mode, derivation_index) = (
       select mode, derivation_index from solana_address_pool where mode = $1 and allocated_at is null
       order by derivation_index limit 1 for update skip locked)
     returning address, derivation_index::text`,
    [mode, paymentId],
  );
  const [left] = await query<{ n: number }>(
    db,
    `select count(*)::int as n from (select 1 from solana_address_pool where mode = $1 and allocated_at is null limit $2) free`,
    [mode, SOLANA_POOL_LOW_WATER],
  );
  if (left!.n < SOLANA_POOL_LOW_WATER)
    await enqueueJob(db, "refill_solana_address_pool", {}, { jobKey: REFILL_JOB_KEY });
  return taken ? { address: taken.address, index: Number(taken.derivation_index) } : null;
}

/**
 * Tops the live pool up to SOLANA_POOL_TARGET unallocated addresses, deriving from the live seed, in the
 * caller's transaction (serialized by an advisory lock, so concurrent refills do not overshoot). Returns how
 * many were added: 0 when no live seed is configured in this process (only the signer holds it).
 */
export async function refillSolanaAddressPool(tx: Db): Promise<number> {
  if (!liveMnemonic()) return 0;
  await query(tx, "select pg_advisory_xact_lock(hashtext('solana_address_pool'))");
  const [free] = await query<{ n: number }>(
    tx,
    "select count(*)::int as n from solana_address_pool where mode = 'live' and allocated_at is null",
  );
  const missing = SOLANA_POOL_TARGET - free!.n;
  if (missing <= 0) return 0;
  const indexes = (
    await query<{ index: string }>(
      tx,
      "select nextval('deposit_index_live_solana')::text as index from generate_series(1, $1)",
      [missing],
    )
  ).map((r) => Number(r.index));
  const seed = await walletSeed(tx, "live");
  await query(
    tx,
    `insert into solana_address_pool (mode, derivation_index, address)
     select 'live', i, a from unnest($1::bigint[], $2::text[]) as t(i, a)`,
    [indexes, indexes.map((i) => deriveAddress(seed, "solana", i).address)],
  );
  return missing;
}
