import type { Db } from "@/lib/platform/db/client";
import { log } from "@/lib/platform/log";
import { backoffDelay } from "@/lib/kernel/backoff";
import { sleep } from "@/lib/kernel/sleep";
import { CursorMovedError } from "./chain-cursor";
import { recordHead, recordScanError } from "./chain-health";
import { ChainMovedError, scanOnce, type ScanResult, type ScanTarget } from "./scan-chain";

export interface WatchOptions {
  /** Wait between scans once caught up with the head. */
  pollMs: number;
  /** Consecutive failures after which the loop returns, so the caller reloads configuration and adapter. */
  maxFailures?: number;
  onScan?: (result: ScanResult) => void;
}

/**
 * Scans one chain until `signal` aborts: back to back while behind (backfill), every `pollMs` once caught
 * up. RPC or database failures back off exponentially (0.5 s … 30 s) and stay contained to this chain.
 */
export async function watchChain(db: Db, target: ScanTarget, signal: AbortSignal, opts: WatchOptions): Promise<void> {
  let failures = 0;
  let headWrittenAt = 0;
  while (!signal.aborted) {
    try {
      const result = await scanOnce(db, target);
      // The head for the dashboard's chain health: at most every 5 s (a fast chain's head moves each poll),
      // and at once on the first good scan after a failure, so the chain reads as recovered.
      if (failures > 0 || Date.now() - headWrittenAt >= 5_000) {
        await recordHead(db, target, result.head).catch(() => {});
        headWrittenAt = Date.now();
      }
      failures = 0;
      opts.onScan?.(result);
      if (result.caughtUp) await sleep(opts.pollMs, signal);
    } catch (err) {
      if (err instanceof CursorMovedError || err instanceof ChainMovedError) {
        log.debug("scan retried", { chain: target.chain, mode: target.mode, reason: err.message });
        await sleep(opts.pollMs, signal);
        continue;
      }
      failures += 1;
      const error = err instanceof Error ? err.message : String(err);
      await recordScanError(db, target, error).catch(() => {});
      if (opts.maxFailures && failures >= opts.maxFailures) {
        log.warn("chain scans keep failing; reloading the chain's configuration", {
          chain: target.chain,
          mode: target.mode,
          failures,
          error,
        });
        return;
      }
      const delay = backoffDelay(failures, { baseMs: 500, maxMs: 30_000 });
      log.warn("chain scan failed; backing off", {
        chain: target.chain,
        mode: target.mode,
        failures,
        delay_ms: delay,
        error,
      });
      await sleep(delay, signal);
    }
  }
}
