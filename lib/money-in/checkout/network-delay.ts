import type { Chain } from "@/lib/chains/chains";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { loadChainHealth } from "@/lib/money-in/watch/load-chain-health";

const TTL_MS = 10_000;
const cache = new Map<Mode, { at: number; delayed: Promise<Set<Chain>> }>();

/**
 * Whether payments on this network are detected late right now (its watcher lagging or erroring), as the
 * checkout tells the payer. Read at most every 10 s per mode and process: every open checkout's status
 * stream asks each second.
 */
export async function networkDelayed(db: Db, mode: Mode, chain: Chain, now = Date.now()): Promise<boolean> {
  let entry = cache.get(mode);
  if (!entry || now - entry.at > TTL_MS) {
    const delayed = loadChainHealth(db, mode).then(
      (health) => new Set(health.filter((h) => h.state === "lagging" || h.state === "erroring").map((h) => h.chain)),
    );
    entry = { at: now, delayed };
    cache.set(mode, entry);
    delayed.catch(() => cache.delete(mode));
  }
  return (await entry.delayed).has(chain);
}
