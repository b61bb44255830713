import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { postJournals } from "@/lib/ledger/post-journal";
import { movementJournals } from "./deposit-journals";
import { log } from "@/lib/log";
import { lockPayments, PaymentBatch } from "@/lib/payments/update-payment";
import type { WatchScope } from "./watch-scope";

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
  }>(
    tx,
    `update deposits set status = 'orphaned', orphaned_at = now() where id = any($1::text[]) and status = 'pending'
     returning id, payment_id, merchant_id, kind, amount_units::text`,
    [depositIds],
  );
  const reversals = orphaned.map((d) => ({
    merchantId: d.merchant_id,
    cause: { type: "deposit" as const, id: d.id },
    units: BigInt(d.amount_units),
  }));
  await postJournals(tx, movementJournals(scope, reversals, "reserved", "chain_deposits"));
  const lost = new Map<string, bigint>();
  for (const d of orphaned)
    if (d.kind === "payment") lost.set(d.payment_id, (lost.get(d.payment_id) ?? 0n) + BigInt(d.amount_units));
  const payments = await lockPayments(tx, [...lost.keys()]);
  const batch = new PaymentBatch();
  for (const payment of payments.values()) {
    const received = payment.amountReceivedUnits - lost.get(payment.id)!;
    if (payment.status !== "pending" && payment.status !== "confirming") {
      batch.apply(payment, { amountReceivedUnits: received });
      continue;
    }
    const completing = await completingDeposit(tx, payment.id, payment.amountUnits);
    if (completing) {
      batch.apply(payment, {
        amountReceivedUnits: received,
        txHash: completing.tx_hash,
        txBlockNumber: Number(completing.block_number),
      });
    } else if (payment.expiresAt.getTime() > Date.now()) {
      batch.apply(payment, {
        status: "awaiting_payment",
        amountReceivedUnits: received,
        txHash: null,
        txBlockNumber: null,
        confirmations: 0,
      });
    } else {
      batch.apply(payment, {
        status: "failed",
        amountReceivedUnits: received,
        txHash: null,
        txBlockNumber: null,
        confirmations: 0,
        closedAt: new Date(),
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

/** The remaining deposit (in chain order) at which the running total reaches the amount, if any. */
async function completingDeposit(
  tx: Db,
  paymentId: string,
  amount: bigint,
): Promise<{ tx_hash: string; block_number: string } | null> {
  const rows = await query<{ tx_hash: string; block_number: string; amount_units: string }>(
    tx,
    `select tx_hash, block_number::text, amount_units::text from deposits
     where payment_id = $1 and kind = 'payment' and status <> 'orphaned' order by block_number, log_index`,
    [paymentId],
  );
  let total = 0n;
  for (const row of rows) {
    total += BigInt(row.amount_units);
    if (total >= amount) return row;
  }
  return null;
}
