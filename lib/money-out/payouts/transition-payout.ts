import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { recordEvents } from "@/lib/notify/events/record-event";
import { postJournal } from "@/lib/books/ledger/post-journal";
import { PAYOUT_FAILURE_CODES, PAYOUT_LIFECYCLE, type PayoutFailureCode, type PayoutTrigger } from "./payout-lifecycle";
import { PAYOUT_COLUMNS, toPayoutRow, type PayoutRow } from "./payout-row";
import { serializePayout } from "./serialize-payout";

export interface PayoutFields {
  txHash?: string | null;
  confirmations?: number | null;
  confirmedAt?: Date;
  approvedAt?: Date;
  failureCode?: PayoutFailureCode;
}

/** Locks a payout for a state change in the caller's transaction. */
export async function lockPayout(tx: Db, id: string): Promise<PayoutRow | null> {
  const [row] = await query(tx, `select ${PAYOUT_COLUMNS} from payouts where id = $1 for update`, [id]);
  return row ? toPayoutRow(row) : null;
}

/**
 * Moves a locked payout by the lifecycle table (an illegal trigger throws), in the caller's transaction: the
 * row, the ledger movement the transition implies (e.g. the refund payouts_in_flight → available) and its
 * event (`payout.confirmed`, `payout.failed`, `payout.blocked`, with the payout as it now is).
 */
export async function transitionPayout(
  tx: Db,
  payout: PayoutRow,
  trigger: PayoutTrigger,
  fields: PayoutFields = {},
): Promise<PayoutRow> {
  const step = PAYOUT_LIFECYCLE.transition(payout.status, trigger);
  const failure = fields.failureCode;
  const [raw] = await query(
    tx,
    `update payouts set status = $2, updated_at = now(),
       tx_hash = case when $3::boolean then $4 else tx_hash end,
       confirmations = case when $5::boolean then $6::int else confirmations end,
       confirmed_at = coalesce($7::timestamptz, confirmed_at),
       approved_at = coalesce($8::timestamptz, approved_at),
       failure_code = coalesce($9, failure_code), failure_message = coalesce($10, failure_message)
     where id = $1 and status = $11 returning ${PAYOUT_COLUMNS}`,
    [
      payout.id,
      step.to,
      fields.txHash !== undefined,
      fields.txHash ?? null,
      fields.confirmations !== undefined,
      fields.confirmations ?? null,
      fields.confirmedAt ?? null,
      fields.approvedAt ?? null,
      failure ?? null,
      failure ? PAYOUT_FAILURE_CODES[failure] : null,
      payout.status,
    ],
  );
  if (!raw) throw new Error(`payout ${payout.id} changed while locked`);
  const row = toPayoutRow(raw);
  if (step.ledger)
    await postJournal(tx, {
      merchantId: row.merchantId,
      mode: row.mode,
      chain: row.chain,
      cause: { type: "payout", id: row.id },
      entries: [
        { account: step.ledger.to, amount: row.amountUnits },
        { account: step.ledger.from, amount: -row.amountUnits },
      ],
    });
  if (step.event)
    await recordEvents(tx, [
      { merchantId: row.merchantId, mode: row.mode, type: step.event, object: serializePayout(row) },
    ]);
  return row;
}
