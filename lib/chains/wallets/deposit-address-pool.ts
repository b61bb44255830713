import { CHAIN_FAMILY, type Chain, type ChainFamily } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";

/** The refill tops each pool up to this many free addresses (a few seconds of a busy installation's creates)… */
export const POOL_TARGET = 1_000;
/** …and a claim that leaves fewer than this asks for a refill at once (besides the minutely one). */
export const POOL_LOW_WATER = 500;
/**
 * The claim that crosses the low-water mark asks, and below it one claim in this many asks again (in case a
 * refill was already past its count): not every claim, which would queue behind one another on the job's row.
 */
const ASK_EVERY = 50;
export const REFILL_JOB = "refill_deposit_address_pool";
export const refillJobKey = (mode: Mode, family: ChainFamily) => `${REFILL_JOB}:${mode}:${family}`;

/** How many free addresses the (mode, family) pool holds, counted up to `limit` (the free index's first rows). */
export async function countFreeAddresses(db: Db, mode: Mode, family: ChainFamily, limit: number): Promise<number> {
  const [free] = await query<{ n: number }>(
    db,
    `select count(*)::int as n from (select 1 from deposit_address_pool
       where mode = $1 and family = $2 and allocated_at is null order by derivation_index + 0 limit $3) free`,
    [mode, family, limit],
  );
  return free!.n;
}

/**
 * The lowest free index of the ($1 mode, $2 family) pool, locked, skipping those other claims hold. Ordered by
 * `derivation_index + 0`, the key of the free addresses' index (deposit_address_pool_free_order), an order the
 * primary key cannot give: a plan on the key would read past every address ever taken.
 */
export const LOWEST_FREE = `select derivation_index from deposit_address_pool
  where mode = $1 and family = $2 and allocated_at is null
  order by derivation_index + 0 limit 1 for update skip locked`;

export interface DepositAddress {
  address: string;
  index: number;
}

/**
 * Takes the lowest free address of the (mode, chain's family) pool for `paymentId`, in the caller's
 * transaction, with one statement: skip locked, so concurrent takers never wait for, nor share, one row.
 * The same statement enqueues the pool's refill (in the transaction: it exists if the claim commits) when
 * the pool is empty or the claim leaves it under the low-water mark, counted from the pool's counter (the
 * addresses derived above the one taken) rather than by scanning the free rows. Null when the pool is
 * empty: the caller waits for the refill (the web process never derives an address).
 */
export async function allocateDepositAddress(
  db: Db,
  mode: Mode,
  chain: Chain,
  paymentId: string,
): Promise<DepositAddress | null> {
  const family = CHAIN_FAMILY[chain];
  const [row] = await query<{ address: string | null; derivation_index: string | null }>(
    db,
    // The lowest free index as a scalar subquery, so the update finds its row by the whole primary key (a join
    // with the choice was planned as a scan of the pool's every row).
    `with taken as (
       update deposit_address_pool set payment_id = $3, allocated_at = now()
       where mode = $1 and family = $2 and derivation_index = (${LOWEST_FREE})
       returning address, derivation_index
     ), left_after as (
       select c.next_index - 1 - t.derivation_index as n
       from deposit_index_counters c, taken t where c.mode = $1 and c.family = $2
     ), refill as (
       select graphile_worker.add_job($6, json_build_object('mode', $1::text, 'family', $2::text), job_key => $7)
       where not exists (select 1 from taken)
         or exists (select 1 from left_after where n < $4 and ($4 - 1 - n) % $5 = 0)
     )
     -- refill is read here only so that it runs (a CTE nobody reads is not evaluated).
     select t.address, t.derivation_index::text as derivation_index, (select count(*) from refill) as refills
     from (select 1) one left join taken t on true`,
    [mode, family, paymentId, POOL_LOW_WATER, ASK_EVERY, REFILL_JOB, refillJobKey(mode, family)],
  );
  return row?.address ? { address: row.address, index: Number(row.derivation_index) } : null;
}
