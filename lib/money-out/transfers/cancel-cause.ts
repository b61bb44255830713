import { invalidRequest, notFound } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { outboundRow } from "@/lib/money-out/outbound/outbound-row";
import { transitionOutbound } from "@/lib/money-out/outbound/transition-outbound";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { lockCause, moveCause } from "./move-cause";
import type { CauseRow, TransferKind } from "./transfer-kind";

/** How a kind is canceled: from which statuses, by which trigger, with which failure code and transfer note. */
export interface Cancellation<Row extends CauseRow, Trigger extends string, Code extends string> {
  from: Row["status"][];
  trigger: Trigger;
  failureCode: Code;
  reason: string;
}

/**
 * Cancels a cause before its transfer is signed, in the caller's transaction, by its lifecycle (the amount back to
 * `available`, its event). A transfer already queued is given up in the same transaction, its row locked first, as
 * the signer locks it, so the signer either signs before (and the cancel is refused: the cause is `processing`) or
 * finds it given up and never signs.
 */
export async function cancelCause<Row extends CauseRow, Trigger extends string, Code extends string>(
  db: Db,
  kind: TransferKind<Row, Trigger, Code>,
  owner: { merchantId: string; mode: Mode },
  id: string,
  cancel: Cancellation<Row, Trigger, Code>,
): Promise<Row> {
  const { purpose } = kind;
  const [peek] = await query<{ outbound_id: string | null }>(
    db,
    `select outbound_id from ${kind.table} where id = $1 and merchant_id = $2 and mode = $3`,
    [id, owner.merchantId, owner.mode],
  );
  if (!peek) throw notFound(purpose, id);
  const transfer = peek.outbound_id ? await lockTransfer(db, peek.outbound_id) : null;
  const row = (await lockCause(db, kind, id))!;
  if (!cancel.from.includes(row.status))
    throw invalidRequest(`The ${purpose} is ${row.status}: only a ${purpose} not yet sent can be canceled.`);
  // Queued between the read above and the lock (its execution job commits it under the cause's lock).
  if (row.outboundId && !transfer)
    throw invalidRequest(`The ${purpose}'s transfer is being queued right now; retry the cancel in a moment.`);
  if (transfer) {
    if (transfer.status !== "intent")
      throw invalidRequest(`The ${purpose}'s transfer is signed: it can no longer be canceled.`);
    await transitionOutbound(db, transfer, "given_up", { failure: cancel.reason });
  }
  return moveCause(db, kind, row, cancel.trigger, { failureCode: cancel.failureCode });
}

async function lockTransfer(db: Db, id: string) {
  const [row] = await query(db, `select ${outboundRow.columns} from outbound_transactions where id = $1 for update`, [
    id,
  ]);
  return outboundRow.map(row!);
}
