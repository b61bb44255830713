import type { ChainAdapter } from "@/lib/chains/adapters/types";
import { inTransaction, type Db } from "@/lib/db/client";
import { matchTransfers } from "@/lib/deposits/match-transfers";
import { recordDeposits } from "@/lib/deposits/record-deposits";
import { advanceInFlightPayments, creditSettledDeposits } from "@/lib/deposits/settle-deposits";
import type { WatchScope } from "@/lib/deposits/watch-scope";
import { expireDuePayments } from "@/lib/payments/expire-payment";
import { initCursor, moveCursor, readCursor, rememberBlocks } from "./chain-cursor";
import { rollBackReorg } from "./roll-back-reorg";

export interface ScanTarget extends WatchScope {
  adapter: ChainAdapter;
  /** Most blocks read by one scan (backfill proceeds in steps of this size). */
  maxBlocksPerScan: number;
  /** Where a watcher with no cursor starts: the chain's first block (sandbox) or its head (live). */
  startAt: "genesis" | "head";
  /** How many recent block hashes are kept to find where a reorganized chain diverged. */
  keepBlocks: number;
}

export interface ScanResult {
  kind: "initialized" | "idle" | "scanned" | "reorg";
  head: number;
  from?: number;
  to?: number;
  deposits?: number;
  caughtUp: boolean;
}

/** The chain changed between two reads of the same scan; the scan is retried. */
export class ChainMovedError extends Error {}

/**
 * One step of a chain watcher: notice a reorganization (the block under the cursor has a new hash) and
 * roll back to the common ancestor; otherwise read the token transfers of the next block range, and apply
 * all of it — deposits, confirmations, credits, expiries, block hashes and the cursor — in one transaction,
 * so a crash at any point leaves either all of a range applied or none of it.
 */
export async function scanOnce(db: Db, target: ScanTarget): Promise<ScanResult> {
  const { adapter } = target;
  const [cursor, head] = await Promise.all([readCursor(db, target), adapter.head()]);
  if (!cursor) {
    await initCursor(db, target, target.startAt === "genesis" ? -1 : head);
    return { kind: "initialized", head, caughtUp: false };
  }
  if (cursor.hash) {
    const current = (await adapter.blocks([cursor.number])).get(cursor.number);
    if (!current || current.hash !== cursor.hash) {
      await rollBackReorg(db, target, cursor);
      return { kind: "reorg", head, caughtUp: false };
    }
  }
  if (head <= cursor.number) return { kind: "idle", head, caughtUp: true };

  const from = cursor.number + 1;
  const to = Math.min(head, cursor.number + target.maxBlocksPerScan);
  const matched = await matchTransfers(db, target, await adapter.transfers(from, to));
  const blocks = await adapter.blocks([to, ...matched.map((m) => m.blockNumber)]);
  const toBlock = blocks.get(to);
  // Headers read after the logs must agree with them; otherwise the chain moved in between: read again.
  if (!toBlock || matched.some((m) => blocks.get(m.blockNumber)?.hash !== m.blockHash)) throw new ChainMovedError(`${target.chain} changed during a scan of ${from}..${to}`);

  const deposits = await inTransaction(db, async (tx) => {
    await moveCursor(tx, target, cursor.number, toBlock);
    const count = await recordDeposits(tx, target, matched, blocks, toBlock);
    await advanceInFlightPayments(tx, target, toBlock);
    await creditSettledDeposits(tx, target, toBlock);
    // Chain time, but never ahead of the clock (a sandbox chain can be mined into the future).
    await expireDuePayments(tx, target.mode, target.chain, new Date(Math.min(toBlock.time.getTime(), Date.now())));
    const depositBlocks = matched.map((m) => blocks.get(m.blockNumber)!);
    await rememberBlocks(tx, target, [toBlock, ...depositBlocks], target.keepBlocks);
    return count;
  });
  return { kind: "scanned", head, from, to, deposits, caughtUp: to === head };
}
