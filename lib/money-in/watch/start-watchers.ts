import type { ChainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import { type ChainLeaders, runChainLeaders } from "@/lib/chains/connect/run-chain-leaders";
import { type AppConfig, config as appConfig } from "@/lib/platform/config/env";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { lateWindowMs } from "@/lib/money-in/deposits/watch-scope";
import type { Mode } from "@/lib/kernel/mode";
import { log } from "@/lib/platform/log";
import type { ScanResult, ScanTarget } from "./scan-chain";
import { recordScanError } from "./chain-health";
import { watchChain } from "./watch-chain";

/** Scan parameters per mode: sandbox chains are young and local (read from genesis, big steps). */
export function scanTarget(config: ChainConfig, cfg: AppConfig = appConfig()): ScanTarget {
  const adapter = createChainAdapter(config);
  return {
    mode: config.mode,
    chain: config.chain,
    decimals: config.decimals,
    confirmations: config.confirmations,
    lateWindowMs: lateWindowMs(cfg),
    adapter,
    // An address-scanning adapter (Solana) finds transfers by account, not by range: any range will do.
    maxBlocksPerScan: adapter.scansAddresses ? Number.MAX_SAFE_INTEGER : config.mode === "sandbox" ? 500 : 50,
    startAt: config.mode === "sandbox" ? "genesis" : "head",
    keepBlocks: Math.max(256, config.confirmations.required * 4),
  };
}

/**
 * Poll a quarter of a block interval once caught up, at least 1 s and at most 2 s: a payer's transfer is seen
 * within a second of its block. Faster polls bought nothing a payer notices and cost an RPC call and a database
 * transaction each, paid per chain and per worker (a live provider bills every call; an idle worker on the test
 * chains spent a quarter of a core at 100 ms polls, docs/CHAINS.md).
 */
export function pollInterval(config: ChainConfig): number {
  return Math.min(2_000, Math.max(1_000, Math.round(config.blockTimeMs / 4)));
}

export type WatcherHandle = ChainLeaders;

/**
 * The chain watchers: one scan loop per enabled (mode, chain), each a single leader across all worker
 * instances (lib/chains/connect/run-chain-leaders.ts); a chain whose scans keep failing reloads its configuration and
 * adapter.
 */
export function startChainWatchers(
  databaseUrl: string,
  opts: {
    onScan?: (mode: Mode, chain: Chain, result: ScanResult) => void;
    retryMs?: number;
    networkCheckMs?: number;
  } = {},
): WatcherHandle {
  return runChainLeaders(
    databaseUrl,
    "watch",
    async (db, config, signal) => {
      const { mode, chain } = config;
      log.info("watching chain", { mode, chain, rpc: mode === "sandbox" ? config.rpcUrl : "(live)" });
      await watchChain(db, scanTarget(config), signal, {
        pollMs: pollInterval(config),
        maxFailures: 5,
        onScan: (r) => opts.onScan?.(mode, chain, r),
      });
    },
    {
      retryMs: opts.retryMs,
      networkCheckMs: opts.networkCheckMs,
      // Shown as the chain's last error on the dashboard's chain health.
      onNetworkRefused: (db, config, reason) => void recordScanError(db, config, reason).catch(() => {}),
    },
  );
}
