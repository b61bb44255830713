import type { Chain } from "@/lib/chains/chains";
import { type AppConfig, config } from "@/lib/platform/config/env";
import type { Mode } from "@/lib/kernel/mode";

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
export function lateWindowMs(cfg: AppConfig = config()): number {
  return cfg.latePaymentWindowDays * 86_400_000;
}
