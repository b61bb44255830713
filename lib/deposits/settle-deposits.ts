import type { BlockRef } from "@/lib/chains/adapters/types";
import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { postJournals, type Journal } from "@/lib/ledger/post-journal";
import { PAYMENT_COLUMNS, toPaymentRow, type PaymentRow } from "@/lib/payments/payment-row";
import { updatePayment } from "@/lib/payments/update-payment";
import type { WatchScope } from "./watch-scope";

/** The confirmations a transfer in `block` has when the chain's head is `head` (its own block counts). */
export function confirmationsAt(head: number, block: number): number {
  return Math.max(0, head - block + 1);
}

/**
 * Moves the in-flight payments of this chain along with the head, in the scan's transaction: keeps
 * `confirmations` current (one statement for all), then `pending` → `confirming` at the threshold and →
 * `confirmed` at the required depth, every transition in order with its event, even when one scan
 * crosses several. Confirmation credits the payment's deposits (reserved → available) exactly once.
 */
export async function advanceInFlightPayments(tx: Db, scope: WatchScope, head: BlockRef): Promise<void> {
  await query(
    tx,
    `update payments set confirmations = greatest(0, $3 - tx_block_number + 1), updated_at = now()
     where mode = $1 and chain = $2 and status in ('pending','confirming') and confirmations <> greatest(0, $3 - tx_block_number + 1)`,
    [scope.mode, scope.chain, head.number],
  );
  const { threshold, required } = scope.confirmations;
  const crossing = await query(
    tx,
    `select ${PAYMENT_COLUMNS} from payments
     where mode = $1 and chain = $2 and ((status = 'pending' and confirmations >= $3) or (status in ('pending','confirming') and confirmations >= $4))
     order by id for update`,
    [scope.mode, scope.chain, threshold, required],
  );
  for (const row of crossing) {
    let payment = toPaymentRow(row);
    if (payment.status === "pending") payment = await updatePayment(tx, payment, { status: "confirming" });
    if (payment.confirmations >= required) await confirmPayment(tx, scope, payment, head);
  }
}

async function confirmPayment(tx: Db, scope: WatchScope, payment: PaymentRow, head: BlockRef): Promise<void> {
  const settledUpTo = head.number - scope.confirmations.required + 1;
  const credited = await query<{ amount_units: string }>(
    tx,
    `update deposits set status = 'credited', credited_at = now()
     where payment_id = $1 and kind = 'payment' and status = 'pending' and block_number <= $2 returning amount_units::text`,
    [payment.id, settledUpTo],
  );
  const total = credited.reduce((sum, d) => sum + BigInt(d.amount_units), 0n);
  if (total > 0n) {
    await postJournals(tx, [
      {
        merchantId: payment.merchantId,
        mode: scope.mode,
        chain: scope.chain,
        cause: { type: "payment", id: payment.id },
        entries: [
          { account: "available", amount: total },
          { account: "reserved", amount: -total },
        ],
      },
    ]);
  }
  const now = new Date();
  await updatePayment(tx, payment, { status: "confirmed", confirmedAt: now, closedAt: now });
}

/**
 * Credits deposits that are deep enough and belong to no payment still in progress: transfers to a
 * payment that is already confirmed (an extra transfer), expired (partial or late funds) or failed, and
 * transfers on the wrong network. Each is its own journal (reserved → available), exactly once.
 */
export async function creditSettledDeposits(tx: Db, scope: WatchScope, head: BlockRef): Promise<number> {
  const credited = await query<{ id: string; merchant_id: string; amount_units: string }>(
    tx,
    `update deposits d set status = 'credited', credited_at = now()
     from payments p
     where p.id = d.payment_id and d.mode = $1 and d.chain = $2 and d.status = 'pending' and d.block_number <= $3
       and (d.kind = 'wrong_network' or p.status in ('confirmed','expired','failed'))
     returning d.id, d.merchant_id, d.amount_units::text`,
    [scope.mode, scope.chain, head.number - scope.confirmations.required + 1],
  );
  const journals: Journal[] = credited
    .filter((d) => BigInt(d.amount_units) > 0n)
    .map((d) => ({
      merchantId: d.merchant_id,
      mode: scope.mode,
      chain: scope.chain,
      cause: { type: "deposit", id: d.id },
      entries: [
        { account: "available", amount: BigInt(d.amount_units) },
        { account: "reserved", amount: -BigInt(d.amount_units) },
      ],
    }));
  await postJournals(tx, journals);
  return credited.length;
}
