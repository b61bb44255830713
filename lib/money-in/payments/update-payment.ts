import { config } from "@/lib/platform/config/env";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { postJournals, type Journal } from "@/lib/books/ledger/post-journal";
import { recordEvents, type EventInput } from "@/lib/notify/events/record-event";
import { PAYMENT_LIFECYCLE, type PaymentTrigger } from "./payment-lifecycle";
import { PAYMENT_COLUMNS, toPaymentRow, type PaymentRow } from "./payment-row";
import { readPaymentTransfers } from "./payment-transfers";
import { serializePayment } from "./serialize-payment";

/** Fields a writer may change on a payment; the status changes only through a lifecycle transition. */
export interface PaymentFields {
  amountReceivedUnits?: bigint;
  txHash?: string | null;
  payerAddress?: string | null;
  txBlockNumber?: number | null;
  confirmations?: number;
  confirmedAt?: Date | null;
  closedAt?: Date | null;
}

/**
 * Changes to payments the caller has locked (select … for update) in its transaction, collected in
 * memory and written together: a chain scan may move hundreds of payments, and each costs no round trip
 * of its own. A status changes only by `transition`, which takes the transition from PAYMENT_LIFECYCLE
 * (throwing on one that is not there) and queues the ledger movement it implies and its event, with the
 * payment as it is right after the change; flush() writes the rows, the journals, then the events (with the
 * payment's transfers as recorded in this transaction).
 */
export class PaymentBatch {
  private readonly rows = new Map<string, PaymentRow>();
  private readonly dirty = new Set<string>();
  /** Events with the payment as it was at its transition; serialized at flush, with the transfers then known. */
  private readonly events: (Omit<EventInput, "object"> & { row: PaymentRow })[] = [];
  private readonly journals: Journal[] = [];

  /** Changes fields of the payment, not its status. */
  update(payment: PaymentRow, fields: PaymentFields): PaymentRow {
    const current = this.rows.get(payment.id) ?? payment;
    const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as PaymentFields;
    const next: PaymentRow = { ...current, ...defined, status: current.status };
    this.rows.set(next.id, next);
    this.dirty.add(next.id);
    return next;
  }

  /**
   * Moves the payment by `trigger` (throws IllegalTransitionError if its status allows none), with `fields`.
   * A transition that moves money (its `ledger`) takes the amount it moves, `movedUnits`.
   */
  transition(
    payment: PaymentRow,
    trigger: PaymentTrigger,
    fields: PaymentFields = {},
    movedUnits?: bigint,
  ): PaymentRow {
    const current = this.rows.get(payment.id) ?? payment;
    const step = PAYMENT_LIFECYCLE.transition(current.status, trigger);
    if (step.ledger && movedUnits === undefined)
      throw new Error(`payment ${trigger} moves money: the amount is missing`);
    const next: PaymentRow = { ...this.update(current, fields), status: step.to };
    this.rows.set(next.id, next);
    if (step.ledger && movedUnits! > 0n)
      this.journals.push({
        merchantId: next.merchantId,
        mode: next.mode,
        chain: next.chain!,
        cause: { type: "payment", id: next.id },
        entries: [
          { account: step.ledger.to, amount: movedUnits! },
          { account: step.ledger.from, amount: -movedUnits! },
        ],
      });
    this.events.push({ merchantId: next.merchantId, mode: next.mode, type: step.event, row: next });
    return next;
  }

  /** The payment as changed so far in this batch (or as given, if untouched). */
  current(payment: PaymentRow): PaymentRow {
    return this.rows.get(payment.id) ?? payment;
  }

  async flush(tx: Db): Promise<void> {
    const rows = [...this.dirty].map((id) => this.rows.get(id)!);
    this.dirty.clear();
    if (rows.length) {
      await query(
        tx,
        `update payments p set status = d.status, amount_received_units = d.received, tx_hash = d.tx_hash,
           payer_address = d.payer, tx_block_number = d.tx_block,
           confirmations = d.confirmations, confirmed_at = d.confirmed_at, closed_at = d.closed_at, updated_at = now()
         from unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::bigint[],
                     $6::int[], $7::timestamptz[], $8::timestamptz[], $9::text[])
           as d(id, status, received, tx_hash, tx_block, confirmations, confirmed_at, closed_at, payer)
         where p.id = d.id`,
        [
          rows.map((r) => r.id),
          rows.map((r) => r.status),
          rows.map((r) => r.amountReceivedUnits.toString()),
          rows.map((r) => r.txHash),
          rows.map((r) => r.txBlockNumber),
          rows.map((r) => r.confirmations),
          rows.map((r) => r.confirmedAt),
          rows.map((r) => r.closedAt),
          rows.map((r) => r.payerAddress),
        ],
      );
    }
    await postJournals(tx, this.journals.splice(0));
    const events = this.events.splice(0);
    const transfers = await readPaymentTransfers(tx, [...new Set(events.map((e) => e.row.id))]);
    await recordEvents(
      tx,
      events.map(({ row, ...event }) => ({
        ...event,
        object: serializePayment(row, config().publicBaseUrl, transfers.get(row.id) ?? []),
      })),
    );
  }
}

/** One transition of one locked payment, written at once with its event. */
export async function transitionPayment(
  tx: Db,
  payment: PaymentRow,
  trigger: PaymentTrigger,
  fields: PaymentFields = {},
): Promise<PaymentRow> {
  const batch = new PaymentBatch();
  const updated = batch.transition(payment, trigger, fields);
  await batch.flush(tx);
  return updated;
}

/** Locks and returns payments by id, in id order (a fixed lock order keeps concurrent writers deadlock-free). */
export async function lockPayments(tx: Db, ids: string[]): Promise<Map<string, PaymentRow>> {
  if (ids.length === 0) return new Map();
  const rows = await query(
    tx,
    `select ${PAYMENT_COLUMNS} from payments where id = any($1::text[]) order by id for update`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id as string, toPaymentRow(r)]));
}
