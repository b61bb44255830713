import { addressKey, addressKeySql } from "@/lib/chains/address-key";
import pg from "pg";
import type { Chain } from "@/lib/chains/chains";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import type { CustodyAccount, CustodyAsset } from "./custody-types";

/** What the custody books and the merchants' balances say about one (mode, chain), read in one snapshot. */
export interface CustodyBooks {
  /** Per asset and account, in the asset's on-chain base units. */
  accounts: Record<CustodyAsset, Partial<Record<CustodyAccount, bigint>>>;
  /** Deposit addresses the books say hold USDT (deposited, or signed away and not yet confirmed). */
  holders: string[];
  /** USDT (raw) of transfers out of the service that landed but are not yet at the chain's depth. */
  settlingRaw: bigint;
  /** What merchants are owed, in USDT base units (6 decimals), from the `balances` table. */
  owed: { available: bigint; reserved: bigint; inFlight: bigint; refundsInFlight: bigint };
}

/**
 * Reads the books of a (mode, chain) in one repeatable-read snapshot, so the figures agree with each other.
 * `roles` are the treasury's and sweeper's addresses: they are read anyway, and a transfer to them is internal.
 */
export async function readCustodyBooks(db: Db, mode: Mode, chain: Chain, roles: string[]): Promise<CustodyBooks> {
  const own = roles.map(addressKey);
  return inTransaction(db, async (tx) => {
    if (db.$client instanceof pg.Pool) await execute(tx, "set transaction isolation level repeatable read, read only");
    const sums = await query<{ asset: CustodyAsset; account: CustodyAccount; total: string }>(
      tx,
      `select asset, account, sum(amount)::text as total from custody_entries where mode = $1 and chain = $2
       group by asset, account`,
      [mode, chain],
    );
    const accounts: CustodyBooks["accounts"] = { usdt: {}, native: {} };
    for (const s of sums) accounts[s.asset][s.account] = BigInt(s.total);
    const held = await query<{ address: string }>(
      tx,
      `select address from custody_entries
       where mode = $1 and chain = $2 and asset = 'usdt' and account in ('deposit_addresses','in_flight') and address is not null
       group by address having sum(amount) <> 0 order by address`,
      [mode, chain],
    );
    const [settling] = await query<{ raw: string }>(
      tx,
      `select coalesce(sum(raw_amount), 0)::text as raw from outbound_transactions
       where mode = $1 and chain = $2 and asset = 'token' and status = 'mined'
         and ${addressKeySql("to_address")} <> all($3::text[])
         and ${addressKeySql("to_address")} <> ${addressKeySql("from_address")}`,
      [mode, chain, own],
    );
    const [owed] = await query<{ available: string; reserved: string; in_flight: string; refunds: string }>(
      tx,
      `select coalesce(sum(available_units), 0)::text as available, coalesce(sum(reserved_units), 0)::text as reserved,
              coalesce(sum(in_flight_units), 0)::text as in_flight,
              coalesce(sum(refunds_in_flight_units), 0)::text as refunds
       from balances where mode = $1 and chain = $2`,
      [mode, chain],
    );
    return {
      accounts,
      holders: held.map((h) => h.address).filter((a) => !own.includes(addressKey(a))),
      settlingRaw: BigInt(settling!.raw),
      owed: {
        available: BigInt(owed!.available),
        reserved: BigInt(owed!.reserved),
        inFlight: BigInt(owed!.in_flight),
        refundsInFlight: BigInt(owed!.refunds),
      },
    };
  });
}
