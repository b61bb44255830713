import type { BlockRef } from "@/lib/chains/chain-adapter";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { postJournals } from "@/lib/books/ledger/post-journal";
import { movementJournals } from "./deposit-journals";
import { depositCreditJournals } from "./settle-receivables";
import { PAYMENT_LIFECYCLE } from "@/lib/money-in/payments/payment-lifecycle";
import { PAYMENT_COLUMNS, toPaymentRow, type PaymentRow } from "@/lib/money-in/payments/payment-row";
import { settlementTriggers } from "@/lib/money-in/payments/payment-rules";
import { PaymentBatch } from "@/lib/money-in/payments/update-payment";
import type { WatchScope } from "./watch-scope";

const CONFIRMATION = PAYMENT_LIFECYCLE.transition("confirming", "confirmations_complete");

/**
 * Moves the in-flight payments of this chain along with the head, in the scan's transaction: keeps
 * `confirmations` current (one statement for all), then `pending` → `confirming` at the threshold and →
 * `confirmed` at the required depth, every transition in order with its event, even when one scan
 * crosses several. Confirmation credits the payment's deposits (reserved → available) exactly once: the
 * deposits flip from pending to credited in the same statement that reads their amounts.
 */
export async function advanceInFlightPayments(tx: Db, scope: WatchScope, head: BlockRef): Promise<void> {
  await query(
    tx,
    `update payments set confirmations = greatest(0, $3 - tx_block_number + 1), updated_at = now()
     where mode = $1 and chain = $2 and status in ('pending','confirming') and confirmations <> greatest(0, $3 - tx_block_number + 1)`,
    [scope.mode, scope.chain, head.number],
  );
  const { threshold, required } = scope.confirmations;
  const crossing = (
    await query(
      tx,
      `select ${PAYMENT_COLUMNS} from payments
       where mode = $1 and chain = $2
         and ((status = 'pending' and confirmations >= $3) or (status in ('pending','confirming') and confirmations >= $4))
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
    const credited = await query<{ payment_id: string; total: string }>(
      tx,
      `with c as (update deposits set status = 'credited', credited_at = now()
                  where payment_id = any($1::text[]) and kind = 'payment' and status = 'pending' and block_number <= $2
                  returning payment_id, amount_units)
       select payment_id, sum(amount_units)::text as total from c group by payment_id`,
      [confirmed.map((p) => p.id), head.number - required + 1],
    );
    const totals = new Map(credited.map((c) => [c.payment_id, BigInt(c.total)]));
    const credits = confirmed.map((p) => ({
      merchantId: p.merchantId,
      cause: { type: "payment" as const, id: p.id },
      units: totals.get(p.id) ?? 0n,
    }));
    const { from, to } = CONFIRMATION.ledger!;
    await postJournals(tx, movementJournals(scope, credits, from, to));
    const now = new Date();
    for (const payment of confirmed)
      batch.transition(payment, "confirmations_complete", { confirmedAt: now, closedAt: now });
  }
  await batch.flush(tx);
}

/**
 * Credits deposits that are deep enough and belong to no payment still in progress: transfers to a
 * payment that is already confirmed (an extra transfer, or its own transfer mined again after a deep
 * reorganization reversed it), expired (partial or late funds) or failed, and transfers on the wrong
 * network. Each is its own journal (reserved → available, settling a reorg receivable first), exactly once.
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
  await postJournals(tx, await depositCreditJournals(tx, scope, credited));
  return credited.length;
}
