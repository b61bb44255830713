import { CHAINS, type Chain } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";

/** Behind by more blocks (slots) than this, or no head read for this long: lagging. */
export const LAG_BLOCKS = 50;
export const STALE_MS = 2 * 60_000;

export type ChainHealthState = "ok" | "lagging" | "erroring" | "not watched";

export interface ChainHealth {
  chain: Chain;
  state: ChainHealthState;
  /** The last block (slot) the watcher applied; null before its first. */
  processed: number | null;
  /** That block's time (chain time); null before the first. */
  processedAt: string | null;
  head: number | null;
  lag: number | null;
  headSeenAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
}

/**
 * Each chain's watcher as it recorded itself in `chain_cursors` (lib/money-in/watch/chain-health.ts): erroring when
 * its last failure is newer than its last good read of the head; lagging when far behind or silent.
 */
export async function loadChainHealth(
  db: Db,
  mode: Mode,
  chains: readonly Chain[] = CHAINS,
  now = new Date(),
): Promise<ChainHealth[]> {
  const rows = await query<{
    chain: Chain;
    block_number: string;
    block_time: Date | null;
    head_number: string | null;
    head_seen_at: Date | null;
    last_error: string | null;
    last_error_at: Date | null;
  }>(
    db,
    `select chain, block_number::text, block_time, head_number::text, head_seen_at, last_error, last_error_at
       from chain_cursors where mode = $1`,
    [mode],
  );
  const byChain = new Map(rows.map((r) => [r.chain, r]));
  return chains.map((chain) => {
    const r = byChain.get(chain);
    if (!r)
      return {
        chain,
        state: "not watched",
        processed: null,
        processedAt: null,
        head: null,
        lag: null,
        headSeenAt: null,
        lastError: null,
        lastErrorAt: null,
      };
    const processed = Number(r.block_number) >= 0 ? Number(r.block_number) : null;
    // The head is written at most every 5 s, the cursor on every scan: the head is at least what was applied.
    const head = r.head_number === null ? null : Math.max(Number(r.head_number), Number(r.block_number));
    const lag = head === null ? null : head - Number(r.block_number);
    const erroring = r.last_error_at !== null && (r.head_seen_at === null || r.last_error_at > r.head_seen_at);
    const stale = r.head_seen_at === null || now.getTime() - r.head_seen_at.getTime() > STALE_MS;
    const state: ChainHealthState = erroring ? "erroring" : stale || (lag ?? 0) > LAG_BLOCKS ? "lagging" : "ok";
    return {
      chain,
      state,
      processed,
      processedAt: processed === null ? null : (r.block_time?.toISOString() ?? null),
      head,
      lag,
      headSeenAt: r.head_seen_at?.toISOString() ?? null,
      lastError: r.last_error,
      lastErrorAt: r.last_error_at?.toISOString() ?? null,
    };
  });
}
