import { notFound } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { postJournal } from "@/lib/books/ledger/post-journal";
import { recordEvents } from "@/lib/notify/events/record-event";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { EventType } from "@/lib/notify/events/event-types";
import type { TransferFailureCode } from "./transfer-failures";
import type { CauseRow, TransferKind, TransferTrigger } from "./transfer-kind";

/** What a status change writes besides the status; a field left undefined keeps its column. */
export interface CauseFields<Code extends string = string> {
  txHash?: string | null;
  confirmations?: number | null;
  settledAt?: Date;
  failureCode?: Code;
  /** The kind's own columns (a payout's `approved_at`, a refund's `to_address`). */
  columns?: Record<string, unknown>;
}

/** A kind's rows as its own code reads and moves them (typed by its triggers and failure codes). */
export function causeRows<Row extends CauseRow, Trigger extends string, Code extends string>(
  kind: TransferKind<Row, Trigger, Code>,
) {
  return {
    /** One of this merchant's and mode's; anything else is 404. */
    get: (db: Db, owner: { merchantId: string; mode: Mode }, id: string) => getOwnedCause(db, kind, owner, id),
    /** Locks it for a state change in the caller's transaction. */
    lock: (tx: Db, id: string) => lockCause(tx, kind, id),
    /** Moves a locked one by its lifecycle table, with its ledger movement and event (moveCause). */
    move: (tx: Db, row: Row, trigger: Trigger | TransferTrigger, fields: CauseFields<Code> = {}) =>
      moveCause(tx, kind, row, trigger, fields),
  };
}

async function getOwnedCause<Row extends CauseRow>(
  db: Db,
  kind: TransferKind<Row, string>,
  owner: { merchantId: string; mode: Mode },
  id: string,
): Promise<Row> {
  const [row] = await query(
    db,
    `select ${kind.rows.columns} from ${kind.table} where id = $1 and merchant_id = $2 and mode = $3`,
    [id, owner.merchantId, owner.mode],
  );
  if (!row) throw notFound(kind.purpose, id);
  return kind.rows.map(row);
}

/** Locks a cause's row for a state change in the caller's transaction. */
export async function lockCause<Row extends CauseRow>(
  tx: Db,
  kind: TransferKind<Row, string>,
  id: string,
): Promise<Row | null> {
  const [row] = await query(tx, `select ${kind.rows.columns} from ${kind.table} where id = $1 for update`, [id]);
  return row ? kind.rows.map(row) : null;
}

/**
 * Moves a locked cause by its lifecycle table (an illegal trigger throws), in the caller's transaction: the row,
 * the ledger movement the transition implies (e.g. the amount in flight back to `available`) and its event,
 * with the object as it now is.
 */
export async function moveCause<Row extends CauseRow, Trigger extends string, Code extends string>(
  tx: Db,
  kind: TransferKind<Row, Trigger, Code>,
  row: Row,
  trigger: Trigger | TransferTrigger,
  fields: CauseFields<Code | TransferFailureCode> = {},
): Promise<Row> {
  const step = kind.lifecycle.transition(row.status, trigger);
  const code = fields.failureCode;
  const writes = Object.entries({
    tx_hash: fields.txHash,
    confirmations: fields.confirmations,
    [kind.settledAtColumn]: fields.settledAt,
    failure_code: code,
    failure_message: code === undefined ? undefined : (kind.failureMessages as Record<string, string>)[code],
    ...fields.columns,
  }).filter(([, value]) => value !== undefined);
  const sets = [
    "status = $2",
    "updated_at = now()",
    ...writes.map(([column], i) => `${column} = $${i + 4}`),
    ...(kind.alwaysSet ? [kind.alwaysSet] : []),
  ];
  const [raw] = await query(
    tx,
    `update ${kind.table} set ${sets.join(", ")} where id = $1 and status = $3 returning ${kind.rows.columns}`,
    [row.id, step.to, row.status, ...writes.map(([, value]) => value)],
  );
  if (!raw) throw new Error(`${kind.purpose} ${row.id} changed while locked`);
  const moved = kind.rows.map(raw);
  if (step.ledger) {
    if (step.ledger.to === "available") await kind.onGiveBack?.(tx, moved);
    await postJournal(tx, {
      merchantId: moved.merchantId,
      mode: moved.mode,
      chain: moved.chain,
      cause: { type: kind.purpose, id: moved.id },
      entries: [
        { account: step.ledger.to, amount: moved.amountUnits },
        { account: step.ledger.from, amount: -moved.amountUnits },
      ],
    });
  }
  if (step.event)
    await recordEvents(tx, [
      { merchantId: moved.merchantId, mode: moved.mode, type: step.event, object: kind.serialize(moved) },
    ]);
  return moved;
}

/** Events about a cause outside a status change (a refund's `refund.created`), with its object, in the caller's tx. */
export async function recordCauseEvents<Row extends CauseRow>(
  tx: Db,
  kind: TransferKind<Row, string>,
  row: Row,
  types: EventType[],
): Promise<void> {
  const object = kind.serialize(row);
  await recordEvents(
    tx,
    types.map((type) => ({ merchantId: row.merchantId, mode: row.mode, type, object })),
  );
}
