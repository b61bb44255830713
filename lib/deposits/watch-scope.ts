import type { Chain } from "@/lib/chains/chains";
import type { Mode } from "@/lib/keys/api-key-format";

/** The chain a watcher reads, in one mode, with what it needs to turn transfers into payment progress. */
export interface WatchScope {
  mode: Mode;
  chain: Chain;
  /** The token's on-chain decimals. */
  decimals: number;
  confirmations: { threshold: number; required: number };
  /** How long after a payment closes (confirmed, expired, failed) transfers to its address still count. */
  lateWindowMs: number;
}

/** LATE_PAYMENT_WINDOW_DAYS (default 7): how long expired and paid addresses keep being watched. */
export function lateWindowMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.LATE_PAYMENT_WINDOW_DAYS;
  const days = raw === undefined || raw === "" ? 7 : Number(raw);
  if (!Number.isFinite(days) || days < 0)
    throw new Error(`LATE_PAYMENT_WINDOW_DAYS must be a number of days, got "${raw}"`);
  return days * 86_400_000;
}
