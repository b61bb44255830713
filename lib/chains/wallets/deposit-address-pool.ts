import { CHAIN_FAMILY, type Chain, type ChainFamily } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import type { PoolPurpose } from "@/lib/kernel/chain-ids";

/** The refill tops each payment pool up to this many free addresses (seconds of a busy installation's creates)… */
export const POOL_TARGET = 1_000;
/** …and a claim that leaves fewer than this asks for a refill at once (besides the minutely one). */
export const POOL_LOW_WATER = 500;
/**
 * The same for each deposit-address pool: smaller, as a customer's address is made once and kept (a refill of
 * 100 derives in well under a second, ahead of 100 creates a second).
 */
export const POOL_SIZES: Record<PoolPurpose, { target: number; lowWater: number }> = {
  payment: { target: POOL_TARGET, lowWater: POOL_LOW_WATER },
  deposit: { target: 300, lowWater: 200 },
};
/**
 * The claim that crosses the low-water mark asks, and below it one claim in this many asks again (in case a
 * refill was already past its count): not every claim, which would queue behind one another on the job's row.
 */
const ASK_EVERY = 50;
export const REFILL_JOB = "refill_deposit_address_pool";
export const refillJobKey = (mode: Mode, family: ChainFamily, purpose: PoolPurpose = "payment") =>
  purpose === "payment" ? `${REFILL_JOB}:${mode}:${family}` : `${REFILL_JOB}:${mode}:${family}:${purpose}`;

/** How many free addresses the (mode, family, purpose) pool holds, counted up to `limit` (the free index's rows). */
export async function countFreeAddresses(
  db: Db,
  mode: Mode,
  family: ChainFamily,
  limit: number,
  purpose: PoolPurpose = "payment",
): Promise<number> {
  const [free] = await query<{ n: number }>(
    db,
    `select count(*)::int as n from (select 1 from deposit_address_pool
       where mode = $1 and family = $2 and purpose = $4 and allocated_at is null
       order by derivation_index + 0 limit $3) free`,
    [mode, family, limit, purpose],
  );
  return free!.n;
}

/**
 * The lowest free index of the ($1 mode, $2 family) pool of a purpose, locked, skipping those other claims hold.
 * Ordered by `derivation_index + 0`, the key of the free addresses' index (deposit_address_pool_free_order), an
 * order the primary key cannot give: a plan on the key would read past every address ever taken. The purpose is
 * a literal (one of two), so a generic plan still sees it.
 */
const lowestFree = (purpose: PoolPurpose) => `select derivation_index from deposit_address_pool
  where mode = $1 and family = $2 and purpose = '${purpose}' and allocated_at is null
  order by derivation_index + 0 limit 1 for update skip locked`;
export const LOWEST_FREE = lowestFree("payment");

export interface DepositAddress {
  address: string;
  index: number;
}

/**
 * Takes the lowest free address of the (mode, chain's family) payment pool for `paymentId`, in the caller's
 * transaction (claimPoolAddress). Null when the pool is empty: the caller waits for the refill (the web
 * process never derives an address).
 */
export function allocateDepositAddress(
  db: Db,
  mode: Mode,
  chain: Chain,
  paymentId: string,
): Promise<DepositAddress | null> {
  return claimPoolAddress(db, mode, CHAIN_FAMILY[chain], { purpose: "payment", ownerId: paymentId });
}

/**
 * Takes the lowest free address of a (mode, family, purpose) pool for its owner (a payment, or a deposit address
 * of the `deposit` range), in the caller's transaction, with one statement: skip locked, so concurrent takers
 * never wait for, nor share, one row. The same statement enqueues the pool's refill (in the transaction: it
 * exists if the claim commits) when the pool is empty or the claim leaves it under the low-water mark, counted
 * from the pool's counter (the addresses derived above the one taken) rather than by scanning the free rows.
 * Null when the pool is empty.
 */
export async function claimPoolAddress(
  db: Db,
  mode: Mode,
  family: ChainFamily,
  claim: { purpose: PoolPurpose; ownerId: string },
): Promise<DepositAddress | null> {
  const owner = claim.purpose === "payment" ? "payment_id" : "deposit_address_id";
  const [row] = await query<{ address: string | null; derivation_index: string | null }>(
    db,
    // The lowest free index as a scalar subquery, so the update finds its row by the whole primary key (a join
    // with the choice was planned as a scan of the pool's every row).
    `with taken as (
       update deposit_address_pool set ${owner} = $3, allocated_at = now()
       where mode = $1 and family = $2 and derivation_index = (${lowestFree(claim.purpose)})
       returning address, derivation_index
     ), left_after as (
       select c.next_index - 1 - t.derivation_index as n
       from deposit_index_counters c, taken t where c.mode = $1 and c.family = $2 and c.purpose = $8
     ), refill as (
       select graphile_worker.add_job($6,
         json_build_object('mode', $1::text, 'family', $2::text, 'purpose', $8::text), job_key => $7)
       where not exists (select 1 from taken)
         or exists (select 1 from left_after where n < $4 and ($4 - 1 - n) % $5 = 0)
     )
     -- refill is read here only so that it runs (a CTE nobody reads is not evaluated).
     select t.address, t.derivation_index::text as derivation_index, (select count(*) from refill) as refills
     from (select 1) one left join taken t on true`,
    [
      mode,
      family,
      claim.ownerId,
      POOL_SIZES[claim.purpose].lowWater,
      ASK_EVERY,
      REFILL_JOB,
      refillJobKey(mode, family, claim.purpose),
      claim.purpose,
    ],
  );
  return row?.address ? { address: row.address, index: Number(row.derivation_index) } : null;
}
