import type { ChainConfig } from "@/lib/chains/chain-config";
import { denialOf } from "@/lib/money-out/destinations/deny-list";
import type { DestinationScreening } from "@/lib/money-out/destinations/screen-destination";
import { queueTreasuryTransfer, type TreasuryLiquidity } from "@/lib/money-out/outbound/treasury-queue";
import type { Db } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import { lockCause, moveCause } from "./move-cause";
import type { CauseRow, TransferKind } from "./transfer-kind";

/** How a kind of money out is executed: its job, and what it adds to the engine's step (take-cause-step.ts). */
export interface CauseExecution<Row extends CauseRow, Round> {
  kind: TransferKind<Row, string>;
  /** Enqueues the kind's execution job for one cause (run again at `runAt`). */
  enqueue(db: Db, id: string, runAt: Date): Promise<unknown>;
  /** Network reads a round needs before its transaction (a payout's batch contract). */
  prepareRound(db: Db, config: ChainConfig, ids: string[]): Promise<Round>;
  /** After the deny-list, under the lock: true when the cause is held (a payout for review). */
  hold?(tx: Db, row: Row): Promise<boolean>;
  /** Queues the cause's transfer: its id, or null while the treasury cannot cover it (default: queueAlone). */
  queue?(tx: Db, config: ChainConfig, liquidity: TreasuryLiquidity, row: Row, round: Round): Promise<string | null>;
}

/** What one execution did with a cause (execute-causes.ts). */
export type CauseStep = "queued" | "waiting" | "denied" | "held" | "nothing_to_do";

/**
 * One cause's step, in the round's transaction under the treasury queue's lock (taken once per transaction):
 * its destination refused by the deny-list or the screening → `denied`; held by its kind; else its transfer
 * queued and recorded on it.
 */
export async function takeCauseStep<Row extends CauseRow, Round>(
  tx: Db,
  execution: CauseExecution<Row, Round>,
  config: ChainConfig,
  liquidity: TreasuryLiquidity,
  id: string,
  screening: DestinationScreening,
  round: Round,
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
  const transferId = execution.queue
    ? await execution.queue(tx, config, liquidity, row, round)
    : await queueAlone(tx, kind.purpose, config, liquidity, row);
  if (!transferId) return "waiting";
  await execute(tx, `update ${kind.table} set outbound_id = $2, updated_at = now() where id = $1`, [
    row.id,
    transferId,
  ]);
  return "queued";
}

/** The cause's own transfer from the treasury, in its queue: its id, or null while the treasury cannot cover it. */
export async function queueAlone(
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
