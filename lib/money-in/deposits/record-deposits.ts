import { toUsdtUnits } from "@/lib/chains/chain-adapter";
import { newId } from "@/lib/kernel/random";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { postDepositMoves } from "./deposit-journals";
import { MINE_AGAIN } from "./deposit-lifecycle";
import { log } from "@/lib/platform/log";
import { MAX_AMOUNT_UNITS } from "@/lib/kernel/amount";
import type { MatchedTransfer } from "./match-transfers";
import type { WatchScope } from "./watch-scope";

/** A transfer to a deposit address, with what its deposit row takes from the payment that owns the address. */
export interface DepositFact {
  transfer: MatchedTransfer;
  merchantId: string;
  /** `wrong_network`: the address is the payment's, on another chain of its family (the payer picked it). */
  kind: "payment" | "wrong_network";
  toAddress: string;
  blockTime: Date;
}

/** A deposit recorded (or revived) by this call. */
export interface RecordedDeposit {
  id: string;
  paymentId: string;
  kind: "payment" | "wrong_network";
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
 * deposit address). Returns what it recorded, in chain order; what that does to the payments is theirs to
 * decide (lib/money-in/payments/apply-deposits.ts).
 */
export async function recordDeposits(tx: Db, scope: WatchScope, facts: DepositFact[]): Promise<RecordedDeposit[]> {
  // One row per transfer: the revival below may touch a row only once per statement.
  const unique = [...new Map(facts.map((f) => [`${f.transfer.txHash}\0${f.transfer.position}`, f])).values()];
  if (unique.length === 0) return [];
  const rows = unique.map(({ transfer: m, merchantId, kind, toAddress, blockTime }) => {
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
      m.paymentId,
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
    ];
  });
  const column = (i: number) => rows.map((r) => r[i]);
  const inserted = await query<{
    id: string;
    payment_id: string;
    merchant_id: string;
    kind: "payment" | "wrong_network";
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
       block_number, block_hash, block_time, from_address, to_address, raw_amount, amount_units)
     select d.id, d.payment_id, d.merchant_id, $1, $2, d.kind, $17, d.tx_hash, d.log_index, d.position,
       d.block_number, d.block_hash, d.block_time, d.from_address, d.to_address, d.raw_amount, d.amount_units
     from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[], $10::bigint[],
       $11::text[], $12::timestamptz[], $13::text[], $14::text[], $15::numeric[], $16::bigint[])
       as d(id, payment_id, merchant_id, kind, tx_hash, log_index, position, block_number, block_hash, block_time,
         from_address, to_address, raw_amount, amount_units)
     order by d.block_number, d.log_index
     on conflict (mode, chain, tx_hash, position) do update set status = $17, log_index = excluded.log_index,
       block_number = excluded.block_number, block_hash = excluded.block_hash, block_time = excluded.block_time,
       raw_amount = excluded.raw_amount, amount_units = excluded.amount_units, orphaned_at = null, credited_at = null
       where deposits.status = $18
     returning id, payment_id, merchant_id, kind, amount_units::text, raw_amount::text, to_address, block_number::text,
       log_index, block_time, tx_hash, from_address`,
    [
      scope.mode,
      scope.chain,
      ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map(column),
      MINE_AGAIN.to,
      MINE_AGAIN.from,
    ],
  );
  // A new deposit reserves what a revived one does.
  await postDepositMoves(tx, scope, inserted, MINE_AGAIN.ledger!, "recorded");

  inserted.sort((a, b) => Number(a.block_number) - Number(b.block_number) || a.log_index - b.log_index);
  return inserted.map((d) => ({
    id: d.id,
    paymentId: d.payment_id,
    kind: d.kind,
    amountUnits: BigInt(d.amount_units),
    blockNumber: Number(d.block_number),
    blockTime: d.block_time,
    txHash: d.tx_hash,
    fromAddress: d.from_address,
  }));
}
