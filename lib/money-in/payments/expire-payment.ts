import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import type { Mode } from "@/lib/kernel/mode";
import type { Chain } from "@/lib/chains/chains";
import { PAYMENT_LIFECYCLE } from "./payment-lifecycle";
import { PAYMENT_COLUMNS, toPaymentRow, type PaymentRow } from "./payment-row";
import { lockPayments, PaymentBatch, transitionPayment } from "./update-payment";

/**
 * How long past `expires_at` a payment on a chain whose watcher has not yet read that far waits before it
 * is expired anyway (the watcher is down or far behind). Until then it stays `awaiting_payment`, because a
 * transfer made in time may still be found; after it, such a transfer counts as a late payment.
 */
export const WATCHER_GRACE_MS = 10 * 60_000;

/** The job that expires the payment at `expires_at`, in the caller's (creating) transaction. */
export async function scheduleExpiry(
  db: Db,
  payment: Pick<PaymentRow, "id" | "expiresAt">,
  runAt = payment.expiresAt,
): Promise<void> {
  await enqueueJob(db, "expire_payment", { paymentId: payment.id }, { runAt, jobKey: `expire_payment:${payment.id}` });
}

/** Expires a payment still awaiting payment (awaiting_payment → expired) in the batch. */
export function expireInBatch(batch: PaymentBatch, payment: PaymentRow): PaymentRow {
  return batch.transition(payment, "expiry", { closedAt: new Date() });
}

/**
 * Called by a chain watcher in its scan transaction once it has read the chain up to `chainTime`: every
 * payment on that chain still awaiting payment whose `expires_at` has passed expires now, because every
 * transfer made before that moment is already counted. Bounded per call; the next scan continues.
 */
export async function expireDuePayments(
  tx: Db,
  mode: Mode,
  chain: Chain,
  chainTime: Date,
  limit = 500,
): Promise<number> {
  const due = await query<{ id: string }>(
    tx,
    `select id from payments
     where mode = $1 and chain = $2 and status = 'awaiting_payment' and expires_at <= $3 order by expires_at limit $4`,
    [mode, chain, chainTime, limit],
  );
  return expireLocked(
    tx,
    due.map((r) => r.id),
  );
}

/** Locks these payments and expires those still awaiting payment (another writer may have moved them). */
async function expireLocked(tx: Db, ids: string[]): Promise<number> {
  const locked = await lockPayments(tx, ids);
  const batch = new PaymentBatch();
  for (const payment of locked.values())
    if (PAYMENT_LIFECYCLE.allows(payment.status, "expiry")) expireInBatch(batch, payment);
  await batch.flush(tx);
  return locked.size;
}

/**
 * The `expire_overdue_payments` sweep (every minute): payments on a chain whose watcher has not expired
 * them WATCHER_GRACE_MS after `expires_at` (the watcher is down, far behind, or the chain is not running)
 * expire now, and so do payments that never got an address (intent_created). Bounded per run.
 */
export async function expireOverduePayments(db: Db, now = new Date(), limit = 500): Promise<number> {
  return inTransaction(db, async (tx) => {
    const due = await query<{ id: string }>(
      tx,
      `(select id from payments where status = 'awaiting_payment' and expires_at <= $1 order by expires_at limit $2)
       union all
       (select id from payments where status = 'intent_created' and expires_at <= $1 limit $2)`,
      [new Date(now.getTime() - WATCHER_GRACE_MS), limit],
    );
    return expireLocked(
      tx,
      due.map((r) => r.id),
    );
  });
}

export type ExpiryOutcome = "expired" | "closed" | "rescheduled";

/**
 * The `expire_payment` job: at `expires_at`, a payment with no network chosen expires at once. One on a
 * chain expires when that chain's watcher has read past `expires_at` (normally it has already expired it
 * itself), or after WATCHER_GRACE_MS if the watcher is behind; otherwise the job looks again shortly.
 */
export async function expirePaymentIfDue(db: Db, paymentId: string, now = new Date()): Promise<ExpiryOutcome> {
  return inTransaction(db, async (tx) => {
    const [row] = await query(tx, `select ${PAYMENT_COLUMNS} from payments where id = $1 for update`, [paymentId]);
    if (!row) return "closed";
    const payment = toPaymentRow(row);
    if (payment.status !== "awaiting_payment") return "closed";
    if (payment.expiresAt > now) {
      await scheduleExpiry(tx, payment);
      return "rescheduled";
    }
    if (payment.chain) {
      const [cursor] = await query<{ block_time: Date | null }>(
        tx,
        "select block_time from chain_cursors where mode = $1 and chain = $2",
        [payment.mode, payment.chain],
      );
      const watcherPassed = cursor?.block_time && cursor.block_time >= payment.expiresAt;
      const graceOver = now.getTime() >= payment.expiresAt.getTime() + WATCHER_GRACE_MS;
      if (!watcherPassed && !graceOver) {
        await scheduleExpiry(
          tx,
          payment,
          new Date(Math.min(now.getTime() + 5_000, payment.expiresAt.getTime() + WATCHER_GRACE_MS)),
        );
        return "rescheduled";
      }
    }
    await transitionPayment(tx, payment, "expiry", { closedAt: new Date() });
    return "expired";
  });
}
