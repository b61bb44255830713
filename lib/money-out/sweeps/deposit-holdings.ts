import { fromUsdtUnits, toUsdtUnits } from "@/lib/chains/chain-adapter";
import type { ChainConfig } from "@/lib/chains/chain-config";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/**
 * What one deposit address holds on a chain, by the books: credited deposits (and, on a customer's deposit address,
 * the dust held there, swept with the rest) less what was swept, by a sweep of its own (top-up strategy) or as a
 * member of a batched sweep (EIP-7702).
 */
export interface DepositHolding {
  address: string;
  derivationIndex: number;
  /** Token base units credited and not yet swept (or being swept). */
  unsweptRaw: bigint;
  /** In USDT base units (6 decimals). */
  unsweptUnits: bigint;
  /** A sweep of it is under way. */
  sweeping: boolean;
  /**
   * Its payment is settled (confirmed, expired, failed): no deposit is still expected. Never for a customer's
   * permanent deposit address, which may receive again any time (so its Solana token account is never closed).
   */
  final: boolean;
}

/**
 * The deposit addresses of a (mode, chain) with credited funds not yet swept, largest first: payments' and
 * customers' alike. Deposits to an address on another chain of its family (`wrong_network`, or a customer's
 * `eth` address paid on bnb) count on the chain where they sit.
 */
export async function depositHoldings(db: Db, config: ChainConfig): Promise<DepositHolding[]> {
  const rows = await query<{
    address: string;
    idx: string;
    credited: string;
    swept: string | null;
    sweeping: boolean | null;
    final: boolean;
  }>(
    db,
    `with credited as (
       select p.deposit_address as address, min(p.derivation_index) as idx, sum(d.raw_amount) as credited,
              bool_and(p.status in ('confirmed','expired','failed')) as final
       from deposits d join payments p on p.id = d.payment_id
       where d.mode = $1 and d.chain = $2 and d.status = 'credited' and p.derivation_index is not null
       group by p.deposit_address
       union all
       select a.address, min(a.derivation_index), sum(d.raw_amount), false
       from deposits d join deposit_addresses a on a.id = d.deposit_address_id
       where d.mode = $1 and d.chain = $2 and d.kind = 'address' and d.status in ('credited','ignored')
       group by a.address
     ), moves as (
       select from_address as address, raw_amount, status
       from outbound_transactions
       where mode = $1 and chain = $2 and purpose = 'sweep'
       union all
       select m.address, m.raw_amount, o.status
       from sweep_batch_members m join outbound_transactions o on o.id = m.outbound_id
       where m.mode = $1 and m.chain = $2
     ), swept as (
       select address,
              sum(raw_amount) filter (where status not in ('reverted','expired')) as swept,
              bool_or(status not in ('confirmed','reverted','expired')) as sweeping
       from moves
       group by address
     )
     select c.address, c.idx::text, c.credited::text, s.swept::text, s.sweeping, c.final
     from credited c left join swept s on s.address = c.address
     where c.credited > coalesce(s.swept, 0) or s.sweeping`,
    [config.mode, config.chain],
  );
  return rows
    .map((r) => {
      const unsweptRaw = BigInt(r.credited) - BigInt(r.swept ?? "0");
      return {
        address: r.address,
        derivationIndex: Number(r.idx),
        unsweptRaw,
        unsweptUnits: toUsdtUnits(unsweptRaw, config.decimals),
        sweeping: r.sweeping === true,
        final: r.final,
      };
    })
    .sort((a, b) => (b.unsweptRaw > a.unsweptRaw ? 1 : b.unsweptRaw < a.unsweptRaw ? -1 : 0));
}

/** USDT units → the token's units, for callers that think in the API's amounts. */
export const rawOf = (config: ChainConfig, units: bigint) => fromUsdtUnits(units, config.decimals);
