import { type TokenTransfer, toUsdtUnits } from "@/lib/chains/chain-adapter";
import { newId } from "@/lib/kernel/random";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { postDepositMoves } from "./deposit-journals";
import { MINE_AGAIN } from "./deposit-lifecycle";
import { log } from "@/lib/platform/log";
import { MAX_AMOUNT_UNITS } from "@/lib/kernel/amount";
import type { WatchScope } from "./watch-scope";

export type DepositKind = "payment" | "wrong_network" | "address";

/** A transfer to a deposit address, with what its deposit row takes from the payment or address that owns it. */
export interface DepositFact {
  transfer: TokenTransfer;
  merchantId: string;
  /**
   * `wrong_network`: the address is the payment's, on another chain of its family (the payer picked it);
   * `address`: a permanent deposit address's (depositAddressId), on any chain of its family.
   */
  kind: DepositKind;
  paymentId: string | null;
  depositAddressId: string | null;
  toAddress: string;
  blockTime: Date;
  /** Dust below the chain's minimum (kind `address`): recorded and held in custody, never reserved or credited. */
  ignored?: boolean;
  /** The deposit address was disabled when the transfer was recorded. */
  addressDisabled?: boolean;
}

/** A deposit recorded (or revived) by this call. */
export interface RecordedDeposit {
  id: string;
  paymentId: string | null;
  depositAddressId: string | null;
  status: "pending" | "ignored";
  kind: DepositKind;
  amountUnits: bigint;
  blockNumber: number;
  blockTime: Date;
  txHash: string;
  fromAddress: string | null;
}

/**
 * Records transfers to deposit addresses, in the caller's transaction, each exactly once: a transfer is its
 * chain, transaction and position in the transaction, so one already recorded is skipped even at another
 * log index, and one whose deposit a reorganization orphaned (the transaction was mined again in another
 * block) revives that deposit at its new block (MINE_AGAIN) rather than adding a second. A new or revived
 * deposit is reserved for the merchant (chain_deposits → reserved) and booked in custody (payers → the
 * deposit address); an `ignored` one (dust) only the latter. Returns what it recorded, in chain order; what that
 * does to the payments or deposit addresses is theirs to decide (lib/money-in/payments/apply-deposits.ts,
 * lib/money-in/deposit-addresses/record-address-deposits.ts).
 */
export async function recordDeposits(tx: Db, scope: WatchScope, facts: DepositFact[]): Promise<RecordedDeposit[]> {
  // One row per transfer: the revival below may touch a row only once per statement.
  const unique = [...new Map(facts.map((f) => [`${f.transfer.txHash}\0${f.transfer.position}`, f])).values()];
  if (unique.length === 0) return [];
  const rows = unique.map((fact) => {
    const { transfer: m, merchantId, kind, toAddress, blockTime } = fact;
    let units = toUsdtUnits(m.rawAmount, scope.decimals);
    if (units > MAX_AMOUNT_UNITS) {
      log.error("transfer too large to account in USDT units; recorded with its raw amount only", {
        chain: scope.chain,
        tx: m.txHash,
        raw: m.rawAmount.toString(),
      });
      units = 0n;
    }
    return [
      newId("dep_"),
      fact.paymentId,
      merchantId,
      kind,
      m.txHash,
      m.logIndex,
      m.position,
      m.blockNumber,
      m.blockHash,
      blockTime.toISOString(),
      m.from,
      toAddress,
      m.rawAmount.toString(),
      units.toString(),
      fact.depositAddressId,
      fact.ignored ? "ignored" : MINE_AGAIN.to,
      fact.addressDisabled ?? false,
    ];
  });
  const column = (i: number) => rows.map((r) => r[i]);
  const inserted = await query<{
    id: string;
    payment_id: string | null;
    deposit_address_id: string | null;
    status: "pending" | "ignored";
    merchant_id: string;
    kind: DepositKind;
    amount_units: string;
    raw_amount: string;
    to_address: string;
    block_number: string;
    log_index: number;
    block_time: Date;
    tx_hash: string;
    from_address: string | null;
  }>(
    tx,
    `insert into deposits (id, payment_id, merchant_id, mode, chain, kind, status, tx_hash, log_index, position,
       block_number, block_hash, block_time, from_address, to_address, raw_amount, amount_units, deposit_address_id,
       address_disabled)
     select d.id, d.payment_id, d.merchant_id, $1, $2, d.kind, d.status, d.tx_hash, d.log_index, d.position,
       d.block_number, d.block_hash, d.block_time, d.from_address, d.to_address, d.raw_amount, d.amount_units,
       d.deposit_address_id, d.address_disabled
     from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[], $10::bigint[],
       $11::text[], $12::timestamptz[], $13::text[], $14::text[], $15::numeric[], $16::bigint[], $17::text[],
       $18::text[], $19::boolean[])
       as d(id, payment_id, merchant_id, kind, tx_hash, log_index, position, block_number, block_hash, block_time,
         from_address, to_address, raw_amount, amount_units, deposit_address_id, status, address_disabled)
     order by d.block_number, d.log_index
     on conflict (mode, chain, tx_hash, position) do update set status = excluded.status,
       log_index = excluded.log_index, block_number = excluded.block_number, block_hash = excluded.block_hash,
       block_time = excluded.block_time, raw_amount = excluded.raw_amount, amount_units = excluded.amount_units,
       orphaned_at = null, credited_at = null
       where deposits.status = $20
     returning id, payment_id, deposit_address_id, status, merchant_id, kind, amount_units::text, raw_amount::text,
       to_address, block_number::text, log_index, block_time, tx_hash, from_address`,
    [
      scope.mode,
      scope.chain,
      ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16].map(column),
      MINE_AGAIN.from,
    ],
  );
  // A new deposit reserves what a revived one does; dust is only held in custody.
  await postDepositMoves(tx, scope, inserted, MINE_AGAIN.ledger!, "recorded");

  inserted.sort((a, b) => Number(a.block_number) - Number(b.block_number) || a.log_index - b.log_index);
  return inserted.map((d) => ({
    id: d.id,
    paymentId: d.payment_id,
    depositAddressId: d.deposit_address_id,
    status: d.status,
    kind: d.kind,
    amountUnits: BigInt(d.amount_units),
    blockNumber: Number(d.block_number),
    blockTime: d.block_time,
    txHash: d.tx_hash,
    fromAddress: d.from_address,
  }));
}
