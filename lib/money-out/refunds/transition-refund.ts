import { postJournal } from "@/lib/books/ledger/post-journal";
import { recordEvents } from "@/lib/notify/events/record-event";
import type { Db } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { REFUND_FAILURE_CODES, REFUND_LIFECYCLE, type RefundFailureCode, type RefundTrigger } from "./refund-lifecycle";
import { REFUND_COLUMNS, type RefundRow, toRefundRow } from "./refund-row";
import { serializeRefund } from "./serialize-refund";

export interface RefundFields {
  toAddress?: string;
  txHash?: string | null;
  confirmations?: number | null;
  succeededAt?: Date;
  failureCode?: RefundFailureCode;
}

/** Locks a refund for a state change in the caller's transaction. */
export async function lockRefund(tx: Db, id: string): Promise<RefundRow | null> {
  const [row] = await query(tx, `select ${REFUND_COLUMNS} from refunds where id = $1 for update`, [id]);
  return row ? toRefundRow(row) : null;
}

/**
 * Moves a locked refund by the lifecycle table (an illegal trigger throws), in the caller's transaction: the
 * row, the ledger movement the transition implies, the payment's `amount_refunded` when the amount goes back to
 * `available`, and its event. The claim token (and code) die as soon as the refund leaves `requires_action`.
 */
export async function transitionRefund(
  tx: Db,
  refund: RefundRow,
  trigger: RefundTrigger,
  fields: RefundFields = {},
): Promise<RefundRow> {
  const step = REFUND_LIFECYCLE.transition(refund.status, trigger);
  const failure = fields.failureCode;
  const [raw] = await query(
    tx,
    `update refunds set status = $2, updated_at = now(),
       to_address = coalesce($3, to_address),
       tx_hash = case when $4::boolean then $5 else tx_hash end,
       confirmations = case when $6::boolean then $7::int else confirmations end,
       succeeded_at = coalesce($8::timestamptz, succeeded_at),
       failure_code = coalesce($9, failure_code), failure_message = coalesce($10, failure_message),
       claim_token_hash = case when $2 = 'requires_action' then claim_token_hash end,
       claim_token_sealed = case when $2 = 'requires_action' then claim_token_sealed end,
       claim_code_hash = case when $2 = 'requires_action' then claim_code_hash end
     where id = $1 and status = $11 returning ${REFUND_COLUMNS}`,
    [
      refund.id,
      step.to,
      fields.toAddress ?? null,
      fields.txHash !== undefined,
      fields.txHash ?? null,
      fields.confirmations !== undefined,
      fields.confirmations ?? null,
      fields.succeededAt ?? null,
      failure ?? null,
      failure ? REFUND_FAILURE_CODES[failure] : null,
      refund.status,
    ],
  );
  if (!raw) throw new Error(`refund ${refund.id} changed while locked`);
  const row = toRefundRow(raw);
  if (step.ledger) {
    if (step.ledger.to === "available")
      await execute(
        tx,
        "update payments set amount_refunded_units = amount_refunded_units - $2, updated_at = now() where id = $1",
        [row.paymentId, row.amountUnits.toString()],
      );
    await postJournal(tx, {
      merchantId: row.merchantId,
      mode: row.mode,
      chain: row.chain,
      cause: { type: "refund", id: row.id },
      entries: [
        { account: step.ledger.to, amount: row.amountUnits },
        { account: step.ledger.from, amount: -row.amountUnits },
      ],
    });
  }
  if (step.event)
    await recordEvents(tx, [
      {
        merchantId: row.merchantId,
        mode: row.mode,
        type: step.event,
        object: serializeRefund(row),
      },
    ]);
  return row;
}
