import type { BlockRef } from "@/lib/chains/chain-adapter";
import { toUsdtUnits } from "@/lib/chains/chain-adapter";
import { newId } from "@/lib/kernel/random";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { postJournals } from "@/lib/books/ledger/post-journal";
import { postCustody } from "@/lib/books/custody/post-custody";
import { custodyDepositJournals, movementJournals } from "./deposit-journals";
import { log } from "@/lib/platform/log";
import { MAX_AMOUNT_UNITS } from "@/lib/kernel/amount";
import { expireInBatch } from "@/lib/money-in/payments/expire-payment";
import { completesPayment, confirmationsAt, expiredBy } from "@/lib/money-in/payments/payment-rules";
import { lockPayments, PaymentBatch } from "@/lib/money-in/payments/update-payment";
import type { MatchedTransfer } from "./match-transfers";
import type { WatchScope } from "./watch-scope";

interface InsertedDeposit {
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
}

/**
 * Records transfers to deposit addresses, in the scan's transaction, each exactly once: a transfer is its
 * chain, transaction and position in the transaction, so one already recorded is skipped even at another
 * log index, and one whose deposit a reorganization orphaned (the transaction was mined again in another
 * block) revives that deposit at its new block rather than adding a second. Applied in chain order:
 * - the amount goes to the merchant's `reserved` balance (journal: chain_deposits → reserved);
 * - on the payment's chain it adds to `amount_received`; when that reaches the amount of a payment still
 *   awaiting payment, the payment becomes `pending` with this transfer's `tx_hash`;
 * - a transfer in a block at or after `expires_at` first expires the payment: it is then a late payment,
 *   credited to the merchant but no longer completing the payment.
 */
export async function recordDeposits(
  tx: Db,
  scope: WatchScope,
  matched: MatchedTransfer[],
  blocks: Map<number, BlockRef | null>,
  head: BlockRef,
): Promise<number> {
  // One row per transfer: the revival below may touch a row only once per statement.
  const transfers = [...new Map(matched.map((m) => [`${m.txHash}\0${m.position}`, m])).values()];
  if (transfers.length === 0) return 0;
  const payments = await lockPayments(tx, [...new Set(transfers.map((m) => m.paymentId))]);
  const rows = transfers.map((m) => {
    const payment = payments.get(m.paymentId)!;
    let units = toUsdtUnits(m.rawAmount, scope.decimals);
    if (units > MAX_AMOUNT_UNITS) {
      log.error("transfer too large to account in USDT units; recorded with its raw amount only", {
        chain: scope.chain,
        tx: m.txHash,
        raw: m.rawAmount.toString(),
      });
      units = 0n;
    }
    const kind = payment.chain === scope.chain ? "payment" : "wrong_network";
    const time = blocks.get(m.blockNumber)!.time;
    return [
      newId("dep_"),
      m.paymentId,
      payment.merchantId,
      kind,
      m.txHash,
      m.logIndex,
      m.position,
      m.blockNumber,
      m.blockHash,
      time.toISOString(),
      m.from,
      payment.depositAddress!,
      m.rawAmount.toString(),
      units.toString(),
    ];
  });
  const column = (i: number) => rows.map((r) => r[i]);
  const inserted = await query<InsertedDeposit>(
    tx,
    `insert into deposits (id, payment_id, merchant_id, mode, chain, kind, status, tx_hash, log_index, position,
       block_number, block_hash, block_time, from_address, to_address, raw_amount, amount_units)
     select d.id, d.payment_id, d.merchant_id, $1, $2, d.kind, 'pending', d.tx_hash, d.log_index, d.position,
       d.block_number, d.block_hash, d.block_time, d.from_address, d.to_address, d.raw_amount, d.amount_units
     from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[], $10::bigint[],
       $11::text[], $12::timestamptz[], $13::text[], $14::text[], $15::numeric[], $16::bigint[])
       as d(id, payment_id, merchant_id, kind, tx_hash, log_index, position, block_number, block_hash, block_time,
         from_address, to_address, raw_amount, amount_units)
     order by d.block_number, d.log_index
     on conflict (mode, chain, tx_hash, position) do update set status = 'pending', log_index = excluded.log_index,
       block_number = excluded.block_number, block_hash = excluded.block_hash, block_time = excluded.block_time,
       raw_amount = excluded.raw_amount, amount_units = excluded.amount_units, orphaned_at = null, credited_at = null
       where deposits.status = 'orphaned'
     returning id, payment_id, merchant_id, kind, amount_units::text, raw_amount::text, to_address, block_number::text,
       log_index, block_time, tx_hash`,
    [scope.mode, scope.chain, ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map(column)],
  );
  const reserve = inserted.map((d) => ({
    merchantId: d.merchant_id,
    cause: { type: "deposit" as const, id: d.id },
    units: BigInt(d.amount_units),
  }));
  await postJournals(tx, movementJournals(scope, reserve, "chain_deposits", "reserved"));
  const onChain = inserted.map((d) => ({ id: d.id, toAddress: d.to_address, rawAmount: BigInt(d.raw_amount) }));
  await postCustody(tx, custodyDepositJournals(scope, onChain, "recorded"));

  inserted.sort((a, b) => Number(a.block_number) - Number(b.block_number) || a.log_index - b.log_index);
  const batch = new PaymentBatch();
  for (const deposit of inserted) {
    if (deposit.kind !== "payment") continue;
    let payment = batch.current(payments.get(deposit.payment_id)!);
    const chainTime = Math.min(deposit.block_time.getTime(), Date.now());
    if (expiredBy(payment, chainTime)) payment = expireInBatch(batch, payment);
    const received = payment.amountReceivedUnits + BigInt(deposit.amount_units);
    if (completesPayment(payment, received)) {
      batch.transition(payment, "funds_detected", {
        amountReceivedUnits: received,
        txHash: deposit.tx_hash,
        txBlockNumber: Number(deposit.block_number),
        confirmations: confirmationsAt(Number(deposit.block_number), head.number),
      });
    } else {
      batch.update(payment, { amountReceivedUnits: received });
    }
  }
  await batch.flush(tx);
  return inserted.length;
}
