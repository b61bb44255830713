import type pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { chainConfig, type ChainConfig } from "@/lib/chains/chain-config";
import { enabledChains, type Chain } from "@/lib/chains/chains";
import { type AppConfig, config as appConfig } from "@/lib/config/env";
import { createChainAdapter } from "@/lib/chains/adapters/create-adapter";
import { createPool, type Db } from "@/lib/db/client";
import { runAsLeader } from "@/lib/db/advisory-lock";
import { lateWindowMs } from "@/lib/deposits/watch-scope";
import type { Mode } from "@/lib/modes/mode";
import { log } from "@/lib/log";
import type { ScanResult, ScanTarget } from "./scan-chain";
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

/** Poll a tenth of a block interval once caught up: detection lags a new block by ≤ that. */
export function pollInterval(config: ChainConfig): number {
  return Math.min(2_000, Math.max(50, Math.round(config.blockTimeMs / 10)));
}

export interface WatcherHandle {
  stop(): Promise<void>;
}

/**
 * One watcher loop per enabled (mode, chain), each a single leader across all worker
 * instances (session advisory lock on its own connection). A chain with no configuration yet (a sandbox
 * chain still starting) is looked for again every few seconds; a chain whose scans keep failing reloads
 * its configuration and adapter.
 */
export function startChainWatchers(
  databaseUrl: string,
  opts: { onScan?: (mode: Mode, chain: Chain, result: ScanResult) => void; retryMs?: number } = {},
): WatcherHandle {
  // WATCH_CHAINS=eth,tron limits this process to some chains (dedicated watcher instances); default all.
  const only = appConfig().watchChains;
  const targets = (["sandbox", "live"] as const).flatMap((mode) =>
    enabledChains(mode)
      .filter((c) => !only || only.includes(c))
      .map((chain) => ({ mode, chain })),
  );
  // Leadership connections are held for as long as a loop leads: they get a pool of their own, and the
  // scans another, so neither starves the job runner's pool.
  const leaderPool: pg.Pool = createPool(databaseUrl, Math.max(1, targets.length));
  const scanPool = createPool(databaseUrl, Math.max(2, targets.length + 1));
  const db = drizzle(scanPool) as Db;
  const stop = new AbortController();
  const loops = targets.map(({ mode, chain }) =>
    runAsLeader(
      leaderPool,
      `usdt-payments:watch:${mode}:${chain}`,
      async (signal) => {
        const config = await chainConfig(db, mode, chain, { fresh: true });
        if (!config) return; // not running (yet); leadership is released and taken again later
        log.info("watching chain", { mode, chain, rpc: mode === "sandbox" ? config.rpcUrl : "(live)" });
        await watchChain(db, scanTarget(config), signal, {
          pollMs: pollInterval(config),
          maxFailures: 5,
          onScan: (r) => opts.onScan?.(mode, chain, r),
        });
      },
      { stop: stop.signal, retryMs: opts.retryMs ?? 2_000 },
    ).catch((err: unknown) => log.error("chain watcher stopped", { mode, chain, error: String(err) })),
  );
  return {
    async stop() {
      stop.abort();
      await Promise.all(loops);
      await Promise.all([leaderPool.end(), scanPool.end()]);
    },
  };
}
