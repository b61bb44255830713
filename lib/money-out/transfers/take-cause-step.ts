import type { ChainConfig } from "@/lib/chains/chain-config";
import { denialOf } from "@/lib/money-out/destinations/deny-list";
import type { DestinationScreening } from "@/lib/money-out/destinations/screen-destination";
import { queueTreasuryTransfer, type TreasuryLiquidity } from "@/lib/money-out/outbound/treasury-queue";
import type { Db } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import { lockCause, moveCause } from "./move-cause";
import { type BatchRound, queueInBatch } from "./payout-batch";
import type { CauseRow, TransferKind } from "./transfer-kind";

/** How a kind of money out is executed: its job, and what it adds to the engine's step (take-cause-step.ts). */
export interface CauseExecution<Row extends CauseRow> {
  kind: TransferKind<Row, string>;
  /** Enqueues the kind's execution job for one cause (run again at `runAt`, else at once). */
  enqueue(db: Db, id: string, runAt?: Date): Promise<unknown>;
  /** After the deny-list, under the lock: true when the cause is held (a payout for review). */
  hold?(tx: Db, row: Row): Promise<boolean>;
  /** Whether the chain's causes of this kind join a batch (payout-batch.ts) rather than go alone. */
  batched?(config: ChainConfig): boolean;
}

/** What one execution did with a cause (execute-causes.ts). */
export type CauseStep = "queued" | "waiting" | "denied" | "held" | "nothing_to_do";

/**
 * One cause's step, in the round's transaction under the treasury queue's lock (taken once per transaction):
 * its destination refused by the deny-list or the screening → `denied`; held by its kind; else its transfer
 * queued and recorded on it.
 */
export async function takeCauseStep<Row extends CauseRow>(
  tx: Db,
  execution: CauseExecution<Row>,
  config: ChainConfig,
  liquidity: TreasuryLiquidity,
  id: string,
  screening: DestinationScreening,
  batch: BatchRound | null,
): Promise<CauseStep> {
  const { kind } = execution;
  const row = await lockCause(tx, kind, id);
  if (row?.status !== "pending" || row.outboundId || !row.toAddress) return "nothing_to_do";
  const failureCode = await denialOf(tx, row.chain, row.toAddress, screening);
  if (failureCode) {
    await moveCause(tx, kind, row, "denied", { failureCode });
    return "denied";
  }
  if (await execution.hold?.(tx, row)) return "held";
  const { toAddress } = row;
  const transferId =
    batch && !batch.alone.has(row.id)
      ? await queueInBatch(
          tx,
          config,
          liquidity,
          { id: row.id, toAddress, amountUnits: row.amountUnits },
          batch.batcher,
        )
      : await queueAlone(tx, kind.purpose, config, liquidity, row);
  if (!transferId) return "waiting";
  await execute(tx, `update ${kind.table} set outbound_id = $2, updated_at = now() where id = $1`, [
    row.id,
    transferId,
  ]);
  return "queued";
}

/** The cause's own transfer from the treasury, in its queue: its id, or null while the treasury cannot cover it. */
async function queueAlone(
  tx: Db,
  purpose: "payout" | "refund",
  config: ChainConfig,
  liquidity: TreasuryLiquidity,
  row: CauseRow,
): Promise<string | null> {
  const transfer = await queueTreasuryTransfer(tx, config, liquidity, {
    purpose,
    causeId: row.id,
    toAddress: row.toAddress!,
    amountUnits: row.amountUnits,
  });
  return transfer?.id ?? null;
}
