import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { postJournals } from "@/lib/books/ledger/post-journal";
import { postCustody } from "@/lib/books/custody/post-custody";
import { custodyDepositJournals, movementJournals } from "./deposit-journals";
import { log } from "@/lib/platform/log";
import { PAYMENT_LIFECYCLE } from "@/lib/money-in/payments/payment-lifecycle";
import { afterOrphanedDeposit, completingDeposit } from "@/lib/money-in/payments/payment-rules";
import { lockPayments, PaymentBatch } from "@/lib/money-in/payments/update-payment";
import type { WatchScope } from "./watch-scope";

const REVERSAL = PAYMENT_LIFECYCLE.transition("pending", "deposit_orphaned");

/**
 * Reverses deposits whose blocks a reorganization removed, before they were credited, in the caller's
 * transaction: the reserved amount goes back (journal reserved → chain_deposits), `amount_received` drops,
 * and a payment that no longer has its full amount returns to `awaiting_payment` (or, past its expiry,
 * becomes `failed`: the payer's transfer was dropped by the chain after the time to pay had run out).
 * If the transfer is mined again on the new chain, the next scan records it afresh.
 */
export async function orphanDeposits(tx: Db, scope: WatchScope, depositIds: string[]): Promise<number> {
  if (depositIds.length === 0) return 0;
  const orphaned = await query<{
    id: string;
    payment_id: string;
    merchant_id: string;
    kind: string;
    amount_units: string;
    raw_amount: string;
    to_address: string;
  }>(
    tx,
    `update deposits set status = 'orphaned', orphaned_at = now() where id = any($1::text[]) and status = 'pending'
     returning id, payment_id, merchant_id, kind, amount_units::text, raw_amount::text, to_address`,
    [depositIds],
  );
  const reversals = orphaned.map((d) => ({
    merchantId: d.merchant_id,
    cause: { type: "deposit" as const, id: d.id },
    units: BigInt(d.amount_units),
  }));
  const { from, to } = REVERSAL.ledger!;
  await postJournals(tx, movementJournals(scope, reversals, from, to));
  const onChain = orphaned.map((d) => ({ id: d.id, toAddress: d.to_address, rawAmount: BigInt(d.raw_amount) }));
  await postCustody(tx, custodyDepositJournals(scope, onChain, "reversed"));
  const lost = new Map<string, bigint>();
  for (const d of orphaned)
    if (d.kind === "payment") lost.set(d.payment_id, (lost.get(d.payment_id) ?? 0n) + BigInt(d.amount_units));
  const payments = await lockPayments(tx, [...lost.keys()]);
  const batch = new PaymentBatch();
  for (const payment of payments.values()) {
    const received = payment.amountReceivedUnits - lost.get(payment.id)!;
    if (payment.status !== "pending" && payment.status !== "confirming") {
      batch.update(payment, { amountReceivedUnits: received });
      continue;
    }
    const completing = completingDeposit(await remainingDeposits(tx, payment.id), payment.amountUnits);
    const trigger = afterOrphanedDeposit(payment, completing !== null, Date.now());
    if (trigger) {
      const unpaid = { amountReceivedUnits: received, txHash: null, txBlockNumber: null, confirmations: 0 };
      const closedAt = trigger === "deposit_orphaned_after_expiry" ? new Date() : undefined;
      batch.transition(payment, trigger, { ...unpaid, closedAt });
    } else {
      batch.update(payment, {
        amountReceivedUnits: received,
        txHash: completing!.txHash,
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

/** The payment's deposits still on the chain, in chain order. */
async function remainingDeposits(
  tx: Db,
  paymentId: string,
): Promise<{ txHash: string; blockNumber: number; amountUnits: bigint }[]> {
  const rows = await query<{ tx_hash: string; block_number: string; amount_units: string }>(
    tx,
    `select tx_hash, block_number::text, amount_units::text from deposits
     where payment_id = $1 and kind = 'payment' and status <> 'orphaned' order by block_number, log_index`,
    [paymentId],
  );
  return rows.map((r) => ({
    txHash: r.tx_hash,
    blockNumber: Number(r.block_number),
    amountUnits: BigInt(r.amount_units),
  }));
}
