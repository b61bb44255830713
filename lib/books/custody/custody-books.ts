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
  /** USDT (raw) of transfers out of the service that may have left the chain ahead of the books: signed, sent or
   *  landed and not yet at the chain's depth (one sent before the books were read may land before the chain is). */
  settlingRaw: bigint;
  /** Per role address (addressKey): its native coin by the books, and what may have left it on chain ahead of them. */
  roleNative: Map<string, RoleNative>;
  /**
   * USDT (raw) of dust received on customers' deposit addresses (deposits below the chain's minimum, never
   * credited): held by the service, owed to no merchant (docs/DEPOSITS.md).
   */
  dustRaw: bigint;
  /** What merchants are owed, in USDT base units (6 decimals), from the `balances` table. */
  owed: { available: bigint; reserved: bigint; inFlight: bigint; refundsInFlight: bigint };
}

export interface RoleNative {
  books: bigint;
  /** Fees and rent of its transactions that landed and are not yet at depth (the books take them then). */
  landed: bigint;
  /** Its transactions signed or sent and not yet seen in a block (each may have landed since). */
  unlanded: number;
}

/**
 * Reads the books of a (mode, chain) in one repeatable-read snapshot, so the figures agree with each other.
 * `roles` are the treasury's and sweeper's addresses: they are read anyway, and a transfer to them is internal.
 * `feePayer` is the address that pays deposit addresses' fees, where one does (the sweeper, on Solana).
 */
export async function readCustodyBooks(
  db: Db,
  mode: Mode,
  chain: Chain,
  roles: string[],
  feePayer: string | null = null,
): Promise<CustodyBooks> {
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
       where mode = $1 and chain = $2 and asset = 'usdt' and account in ('deposit_addresses','in_flight')
         and address is not null
       group by address having sum(amount) <> 0 order by address`,
      [mode, chain],
    );
    const [settling] = await query<{ raw: string }>(
      tx,
      `select coalesce(sum(raw_amount), 0)::text as raw from outbound_transactions
       where mode = $1 and chain = $2 and asset = 'token' and status in ('signed','broadcast','mined')
         and ${addressKeySql("to_address")} <> all($3::text[])
         and ${addressKeySql("to_address")} <> ${addressKeySql("from_address")}`,
      [mode, chain, own],
    );
    const roleNative = new Map<string, RoleNative>(own.map((a) => [a, { books: 0n, landed: 0n, unlanded: 0 }]));
    const nativeBooks = await query<{ address: string; total: string }>(
      tx,
      `select ${addressKeySql("address")} as address, sum(amount)::text as total from custody_entries
       where mode = $1 and chain = $2 and asset = 'native' and account in ('treasury','sweeper')
         and ${addressKeySql("address")} = any($3::text[]) group by 1`,
      [mode, chain, own],
    );
    for (const b of nativeBooks) roleNative.get(b.address)!.books = BigInt(b.total);
    const open = await query<{ payer: string; landed: string; unlanded: number }>(
      tx,
      `select ${addressKeySql("payer")} as payer,
              coalesce(sum(coalesce(fee_native, 0) + coalesce(rent_paid_native, 0))
                filter (where status = 'mined'), 0)::text as landed,
              (count(*) filter (where status in ('signed','broadcast')))::int as unlanded
       from (select case when $4::text is not null and signer->>'role' = 'deposit' then $4::text else from_address end
                      as payer,
                    status, fee_native, rent_paid_native
             from outbound_transactions where mode = $1 and chain = $2 and status in ('signed','broadcast','mined')) o
       where ${addressKeySql("payer")} = any($3::text[]) group by 1`,
      [mode, chain, own, feePayer],
    );
    for (const o of open) Object.assign(roleNative.get(o.payer)!, { landed: BigInt(o.landed), unlanded: o.unlanded });
    const [owed] = await query<{ available: string; reserved: string; in_flight: string; refunds: string }>(
      tx,
      `select coalesce(sum(available_units), 0)::text as available, coalesce(sum(reserved_units), 0)::text as reserved,
              coalesce(sum(in_flight_units), 0)::text as in_flight,
              coalesce(sum(refunds_in_flight_units), 0)::text as refunds
       from balances where mode = $1 and chain = $2`,
      [mode, chain],
    );
    const [dust] = await query<{ raw: string }>(
      tx,
      `select coalesce(sum(raw_amount), 0)::text as raw from deposits
       where mode = $1 and chain = $2 and kind = 'address' and status = 'ignored'`,
      [mode, chain],
    );
    return {
      accounts,
      dustRaw: BigInt(dust!.raw),
      holders: held.map((h) => h.address).filter((a) => !own.includes(addressKey(a))),
      settlingRaw: BigInt(settling!.raw),
      roleNative,
      owed: {
        available: BigInt(owed!.available),
        reserved: BigInt(owed!.reserved),
        inFlight: BigInt(owed!.in_flight),
        refundsInFlight: BigInt(owed!.refunds),
      },
    };
  });
}
