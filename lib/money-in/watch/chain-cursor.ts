import type { BlockRef } from "@/lib/chains/chain-adapter";
import type { Db } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import type { WatchScope } from "@/lib/money-in/deposits/watch-scope";

export interface Cursor {
  /** The last block fully applied (-1: nothing yet). */
  number: number;
  hash: string | null;
}

/** Another watcher instance moved the cursor first; this scan's work is discarded (rolled back). */
export class CursorMovedError extends Error {
  constructor() {
    super("the chain cursor was advanced by another instance");
  }
}

export async function readCursor(db: Db, scope: Pick<WatchScope, "mode" | "chain">): Promise<Cursor | null> {
  const [row] = await query<{ block_number: string; block_hash: string | null }>(
    db,
    "select block_number::text, block_hash from chain_cursors where mode = $1 and chain = $2",
    [scope.mode, scope.chain],
  );
  return row ? { number: Number(row.block_number), hash: row.block_hash } : null;
}

export async function initCursor(db: Db, scope: Pick<WatchScope, "mode" | "chain">, number: number): Promise<void> {
  await query(db, "insert into chain_cursors (mode, chain, block_number) values ($1, $2, $3) on conflict do nothing", [
    scope.mode,
    scope.chain,
    number,
  ]);
}

/**
 * Moves the cursor from `from` to `to` inside the scan's transaction, first thing: the row lock serializes
 * concurrent scanners, and the one that finds the cursor already moved throws, rolling its work back.
 */
export async function moveCursor(
  tx: Db,
  scope: Pick<WatchScope, "mode" | "chain">,
  from: number,
  to: { number: number; hash: string | null; time: Date | null },
): Promise<void> {
  const moved = await execute(
    tx,
    `update chain_cursors set block_number = $4, block_hash = $5, block_time = $6, updated_at = now()
     where mode = $1 and chain = $2 and block_number = $3`,
    [scope.mode, scope.chain, from, to.number, to.hash, to.time],
  );
  if (moved !== 1) throw new CursorMovedError();
}

/** Remembers block hashes (for reorg detection), keeping the most recent `keep` blocks. */
export async function rememberBlocks(
  tx: Db,
  scope: Pick<WatchScope, "mode" | "chain">,
  blocks: BlockRef[],
  keep: number,
): Promise<void> {
  if (blocks.length === 0) return;
  blocks = [...new Map(blocks.map((b) => [b.number, b])).values()];
  await query(
    tx,
    `insert into chain_blocks (mode, chain, number, hash) select $1, $2, n, h
     from unnest($3::bigint[], $4::text[]) as b(n, h)
     on conflict (mode, chain, number) do update set hash = excluded.hash`,
    [scope.mode, scope.chain, blocks.map((b) => b.number), blocks.map((b) => b.hash)],
  );
  const newest = Math.max(...blocks.map((b) => b.number));
  await query(tx, "delete from chain_blocks where mode = $1 and chain = $2 and number < $3", [
    scope.mode,
    scope.chain,
    newest - keep,
  ]);
}
