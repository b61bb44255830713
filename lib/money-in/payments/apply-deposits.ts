import type { BlockRef } from "@/lib/chains/chain-adapter";
import type { Db } from "@/lib/platform/db/client";
import { log } from "@/lib/platform/log";
import type { MatchedTransfer } from "@/lib/money-in/deposits/match-transfers";
import { depositsOnChain, orphanDeposits } from "@/lib/money-in/deposits/orphan-deposits";
import { recordDeposits } from "@/lib/money-in/deposits/record-deposits";
import {
  paymentsOfDeposits,
  reverseCreditedDeposits,
  type ReorgReversal,
} from "@/lib/money-in/deposits/reverse-credited-deposits";
import type { WatchScope } from "@/lib/money-in/deposits/watch-scope";
import { expireInBatch } from "./expire-payment";
import { afterOrphanedDeposit, completesPayment, completingDeposit, confirmationsAt, expiredBy } from "./payment-rules";
import { lockPayments, PaymentBatch } from "./update-payment";

/**
 * Payments decide their own status from the deposits the watcher records: each function below locks the
 * payments concerned (in id order, before any balance), lets lib/money-in/deposits record the facts and
 * move the money they move, then applies what the facts mean to each payment through PaymentBatch.
 */

/**
 * Transfers to deposit addresses, in chain order: each is recorded once (reserved for the merchant); on the
 * payment's chain it adds to `amount_received`, and when that reaches the amount of a payment still
 * awaiting payment, the payment becomes `pending` with this transfer's `tx_hash`. A transfer in a block at
 * or after `expires_at` first expires the payment: it is then a late payment, credited to the merchant but
 * no longer completing the payment.
 */
export async function recordPaymentDeposits(
  tx: Db,
  scope: WatchScope,
  matched: MatchedTransfer[],
  blocks: Map<number, BlockRef | null>,
  head: BlockRef,
): Promise<number> {
  if (matched.length === 0) return 0;
  const payments = await lockPayments(tx, [...new Set(matched.map((m) => m.paymentId))]);
  const recorded = await recordDeposits(
    tx,
    scope,
    matched.map((transfer) => {
      const payment = payments.get(transfer.paymentId)!;
      return {
        transfer,
        paymentId: transfer.paymentId,
        depositAddressId: null,
        merchantId: payment.merchantId,
        kind: payment.chain === scope.chain ? "payment" : "wrong_network",
        toAddress: payment.depositAddress!,
        blockTime: blocks.get(transfer.blockNumber)!.time,
      };
    }),
  );
  const batch = new PaymentBatch();
  for (const deposit of recorded) {
    if (deposit.kind !== "payment") continue;
    let payment = batch.current(payments.get(deposit.paymentId!)!);
    const chainTime = Math.min(deposit.blockTime.getTime(), Date.now());
    if (expiredBy(payment, chainTime)) payment = expireInBatch(batch, payment);
    const received = payment.amountReceivedUnits + deposit.amountUnits;
    if (completesPayment(payment, received)) {
      batch.transition(payment, "funds_detected", {
        amountReceivedUnits: received,
        txHash: deposit.txHash,
        payerAddress: deposit.fromAddress,
        txBlockNumber: deposit.blockNumber,
        confirmations: confirmationsAt(deposit.blockNumber, head.number),
      });
    } else {
      batch.update(payment, { amountReceivedUnits: received });
    }
  }
  await batch.flush(tx);
  return recorded.length;
}

/**
 * Deposits a reorganization removed before they were credited: `amount_received` drops, and a payment that
 * no longer has its full amount returns to `awaiting_payment` (or, past its expiry, becomes `failed`: the
 * payer's transfer was dropped by the chain after the time to pay had run out).
 */
export async function orphanPaymentDeposits(tx: Db, scope: WatchScope, depositIds: string[]): Promise<number> {
  const orphaned = await orphanDeposits(tx, scope, depositIds);
  const lost = lostPerPayment(orphaned);
  const payments = await lockPayments(tx, [...lost.keys()]);
  const batch = new PaymentBatch();
  for (const payment of payments.values()) {
    const received = payment.amountReceivedUnits - lost.get(payment.id)!;
    if (payment.status !== "pending" && payment.status !== "confirming") {
      batch.update(payment, { amountReceivedUnits: received });
      continue;
    }
    const completing = completingDeposit(await depositsOnChain(tx, payment.id), payment.amountUnits);
    const trigger = afterOrphanedDeposit(payment, completing !== null, Date.now());
    if (trigger) {
      const unpaid = {
        amountReceivedUnits: received,
        txHash: null,
        payerAddress: null,
        txBlockNumber: null,
        confirmations: 0,
      };
      const closedAt = trigger === "deposit_orphaned_after_expiry" ? new Date() : undefined;
      batch.transition(payment, trigger, { ...unpaid, closedAt });
    } else {
      batch.update(payment, {
        amountReceivedUnits: received,
        txHash: completing!.txHash,
        payerAddress: completing!.fromAddress,
        txBlockNumber: completing!.blockNumber,
      });
    }
    log.warn("a reorganization removed a payment's deposit", {
      payment: payment.id,
      chain: scope.chain,
      mode: scope.mode,
    });
  }
  await batch.flush(tx);
  return orphaned.length;
}

/**
 * Credited deposits a reorganization deeper than the required confirmations removed (reversed by
 * lib/money-in/deposits/reverse-credited-deposits.ts). The payment keeps its status (a confirmed payment is
 * not reopened); its `amount_received` drops by the amount, as the chain no longer shows it.
 */
export async function reversePaymentDeposits(
  tx: Db,
  scope: WatchScope,
  depositIds: string[],
  ancestor: number,
): Promise<ReorgReversal[]> {
  const payments = await lockPayments(tx, await paymentsOfDeposits(tx, depositIds));
  const reversals = await reverseCreditedDeposits(tx, scope, depositIds, ancestor);
  const lost = lostPerPayment(reversals);
  const batch = new PaymentBatch();
  for (const [id, units] of lost) {
    const payment = payments.get(id)!;
    batch.update(payment, { amountReceivedUnits: payment.amountReceivedUnits - units });
  }
  await batch.flush(tx);
  return reversals;
}

/** What removed deposits took from each payment's `amount_received` (wrong-network ones never counted). */
function lostPerPayment(
  removed: { paymentId: string | null; kind: string; amountUnits: bigint }[],
): Map<string, bigint> {
  const lost = new Map<string, bigint>();
  for (const d of removed)
    if (d.kind === "payment") lost.set(d.paymentId!, (lost.get(d.paymentId!) ?? 0n) + d.amountUnits);
  return lost;
}
