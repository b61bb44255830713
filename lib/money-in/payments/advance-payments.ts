import type { BlockRef } from "@/lib/chains/chain-adapter";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { creditPaymentDeposits } from "@/lib/money-in/deposits/credit-deposits";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import type { WatchScope } from "@/lib/money-in/deposits/watch-scope";
import { PAYMENT_COLUMNS, toPaymentRow, type PaymentRow } from "./payment-row";
import { settlementTriggers } from "./payment-rules";
import { PaymentBatch } from "./update-payment";

/**
 * Moves the in-flight payments of this chain along with the head, in the scan's transaction: keeps
 * `confirmations` current (one statement for all), then `pending` → `confirming` at the threshold and →
 * `confirmed` at the required depth, every transition in order with its event, even when one scan
 * crosses several. Confirmation credits the payment's deposits exactly once (they flip from pending to
 * credited in the statement that sums them) and its transition posts that sum, reserved → available.
 */
export async function advanceInFlightPayments(tx: Db, scope: WatchScope, head: BlockRef): Promise<void> {
  await query(
    tx,
    `update payments set confirmations = greatest(0, $3 - tx_block_number + 1), updated_at = now()
     where mode = $1 and chain = $2 and status in ('pending','confirming')
     and confirmations <> greatest(0, $3 - tx_block_number + 1)`,
    [scope.mode, scope.chain, head.number],
  );
  const { threshold, required } = scope.confirmations;
  const crossing = (
    await query(
      tx,
      `select ${PAYMENT_COLUMNS} from payments
       where mode = $1 and chain = $2
         and ((status = 'pending' and confirmations >= $3)
              or (status in ('pending','confirming') and confirmations >= $4))
       order by id for update`,
      [scope.mode, scope.chain, threshold, required],
    )
  ).map(toPaymentRow);
  if (crossing.length === 0) return;
  const batch = new PaymentBatch();
  const confirmed: PaymentRow[] = [];
  for (const payment of crossing) {
    const triggers = settlementTriggers(payment.status, payment.confirmations, scope.confirmations);
    if (triggers[0] === "threshold_reached") batch.transition(payment, "threshold_reached");
    if (triggers.includes("confirmations_complete")) confirmed.push(batch.current(payment));
  }
  if (confirmed.length) {
    const totals = await creditPaymentDeposits(
      tx,
      confirmed.map((p) => p.id),
      head.number - required + 1,
    );
    const now = new Date();
    for (const payment of confirmed)
      batch.transition(
        payment,
        "confirmations_complete",
        { confirmedAt: now, closedAt: now },
        totals.get(payment.id) ?? 0n,
      );
    // Overpaid: the merchant's refund policy may open a refund of the excess (lib/money-out/refunds).
    for (const payment of confirmed.filter((p) => p.amountReceivedUnits > p.amountUnits))
      await enqueueJob(
        tx,
        "apply_refund_policy",
        { payment_id: payment.id },
        { jobKey: `apply_refund_policy:${payment.id}` },
      );
  }
  await batch.flush(tx);
}
