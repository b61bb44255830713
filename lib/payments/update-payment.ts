import { config } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { recordEvent } from "@/lib/events/record-event";
import type { EventType } from "@/lib/webhooks/event-types";
import { PAYMENT_COLUMNS, toPaymentRow, type PaymentRow, type PaymentStatus } from "./payment-row";
import { serializePayment } from "./serialize-payment";

export interface PaymentChange {
  status?: PaymentStatus;
  amountReceivedUnits?: bigint;
  txHash?: string | null;
  txBlockNumber?: number | null;
  confirmations?: number;
  confirmedAt?: Date | null;
  closedAt?: Date | null;
}

const COLUMN: Record<keyof PaymentChange, string> = {
  status: "status",
  amountReceivedUnits: "amount_received_units",
  txHash: "tx_hash",
  txBlockNumber: "tx_block_number",
  confirmations: "confirmations",
  confirmedAt: "confirmed_at",
  closedAt: "closed_at",
};

/**
 * Applies a change to a payment the caller has locked (select … for update) in its transaction. A new
 * status records that status's event (spec 3.1: every transition has one) in the same transaction, with
 * the payment as it is after the change.
 */
export async function updatePayment(tx: Db, payment: PaymentRow, change: PaymentChange): Promise<PaymentRow> {
  const keys = (Object.keys(change) as (keyof PaymentChange)[]).filter((k) => change[k] !== undefined);
  if (keys.length === 0) return payment;
  const values = keys.map((k) => {
    const v = change[k];
    return typeof v === "bigint" ? v.toString() : v;
  });
  const sets = keys.map((k, i) => `${COLUMN[k]} = $${i + 2}`).join(", ");
  const [row] = await query(tx, `update payments set ${sets}, updated_at = now() where id = $1 returning ${PAYMENT_COLUMNS}`, [payment.id, ...values]);
  const updated = toPaymentRow(row!);
  if (change.status && change.status !== payment.status) {
    await recordEvent(tx, { merchantId: updated.merchantId, mode: updated.mode, type: `payment.${change.status}` as EventType, object: serializePayment(updated, config().publicBaseUrl) });
  }
  return updated;
}

/** Locks and returns payments by id, in id order (a fixed lock order keeps concurrent writers deadlock-free). */
export async function lockPayments(tx: Db, ids: string[]): Promise<Map<string, PaymentRow>> {
  if (ids.length === 0) return new Map();
  const rows = await query(tx, `select ${PAYMENT_COLUMNS} from payments where id = any($1::text[]) order by id for update`, [ids]);
  return new Map(rows.map((r) => [r.id as string, toPaymentRow(r)]));
}
