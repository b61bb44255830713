import { inTransaction, type Db } from "@/lib/platform/db/client";
import { matchTransfers } from "@/lib/money-in/deposits/match-transfers";
import { watchedAddresses } from "@/lib/money-in/deposits/watched-addresses";
import { creditSettledDeposits } from "@/lib/money-in/deposits/credit-deposits";
import { matchAddressTransfers } from "@/lib/money-in/deposit-addresses/match-address-transfers";
import { creditAddressDeposits, recordAddressDeposits } from "@/lib/money-in/deposit-addresses/record-address-deposits";
import { advanceInFlightPayments } from "@/lib/money-in/payments/advance-payments";
import { recordPaymentDeposits } from "@/lib/money-in/payments/apply-deposits";
import { expireDuePayments } from "@/lib/money-in/payments/expire-payment";
import { initCursor, moveCursor, readCursor, rememberBlocks } from "./chain-cursor";
import { rollBackReorg } from "./roll-back-reorg";
import { scanCrashPoint } from "./scan-crash-point";
import type { ScanTarget } from "./scan-target";

export type { ScanTarget } from "./scan-target";

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
  const from = cursor.number + 1;
  const to = Math.min(head, cursor.number + target.maxBlocksPerScan);
  // One round of RPC for the reorg check, the logs and the header of the range's last block (the adapter
  // batches concurrent calls). Headers and logs must agree on block hashes; if a block changed between
  // the reads, the scan is retried.
  const watched = adapter.scansAddresses && to >= from ? await watchedAddresses(db, target) : undefined;
  const [cursorBlock, transfers, last] = await Promise.all([
    cursor.hash ? adapter.blocks([cursor.number]) : null,
    to >= from ? adapter.transfers(from, to, watched) : [],
    to >= from ? adapter.blocks([to]) : null,
  ]);
  if (cursorBlock) {
    const current = cursorBlock.get(cursor.number);
    if (!current || current.hash !== cursor.hash) {
      await rollBackReorg(db, target, cursor);
      return { kind: "reorg", head, caughtUp: false };
    }
  }
  if (to < from) return { kind: "idle", head, caughtUp: true };

  // Payments' single-use addresses and the permanent deposit addresses, each matched through its own index.
  const [found, foundAtAddresses] = await Promise.all([
    matchTransfers(db, target, transfers),
    matchAddressTransfers(db, target, transfers),
  ]);
  const matched = adapter.keepMatched ? await adapter.keepMatched(found) : found;
  const atAddresses = adapter.keepMatched ? await adapter.keepMatched(foundAtAddresses) : foundAtAddresses;
  const blocks = new Map(last!);
  const all = [...matched, ...atAddresses];
  const unknown = all.map((m) => m.blockNumber).filter((n) => !blocks.has(n));
  if (unknown.length) for (const [n, b] of await adapter.blocks(unknown)) blocks.set(n, b);
  const toBlock = blocks.get(to);
  if (!toBlock || all.some((m) => blocks.get(m.blockNumber)?.hash !== m.blockHash))
    throw new ChainMovedError(`${target.chain} changed during a scan of ${from}..${to}`);

  const deposits = await inTransaction(db, async (tx) => {
    await moveCursor(tx, target, cursor.number, toBlock);
    const count =
      (await recordPaymentDeposits(tx, target, matched, blocks, toBlock)) +
      (await recordAddressDeposits(tx, target, atAddresses, blocks));
    await advanceInFlightPayments(tx, target, toBlock);
    await creditSettledDeposits(tx, target, toBlock);
    await creditAddressDeposits(tx, target, toBlock);
    // Chain time, but never ahead of the clock (a sandbox chain can be mined into the future).
    await expireDuePayments(tx, target.mode, target.chain, new Date(Math.min(toBlock.time.getTime(), Date.now())));
    const depositBlocks = all.map((m) => blocks.get(m.blockNumber)!);
    await rememberBlocks(tx, target, [toBlock, ...depositBlocks], target.keepBlocks);
    scanCrashPoint("before_commit", count);
    return count;
  });
  scanCrashPoint("after_commit", deposits);
  return { kind: "scanned", head, from, to, deposits, caughtUp: to === head };
}
