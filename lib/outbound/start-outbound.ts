import type pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { chainConfig } from "@/lib/chains/chain-config";
import { enabledChains } from "@/lib/chains/chains";
import { config as appConfig } from "@/lib/config/env";
import { createPool, type Db } from "@/lib/db/client";
import { runAsLeader } from "@/lib/db/advisory-lock";
import { log } from "@/lib/log";
import { runOutbound } from "./run-outbound";

/**
 * One outbound leader per enabled (mode, chain) across all worker instances (a session advisory lock, as the
 * watchers have): the only process that signs, sends and tracks that chain's outbound transactions, so two
 * instances never race for a nonce. WATCH_CHAINS limits the chains as it does for the watchers.
 */
export function startOutboundLeaders(databaseUrl: string, opts: { retryMs?: number } = {}): { stop(): Promise<void> } {
  const only = appConfig().watchChains;
  const targets = (["sandbox", "live"] as const).flatMap((mode) =>
    enabledChains(mode)
      .filter((c) => !only || only.includes(c))
      .map((chain) => ({ mode, chain })),
  );
  const leaderPool: pg.Pool = createPool(databaseUrl, Math.max(1, targets.length));
  const workPool = createPool(databaseUrl, Math.max(2, targets.length + 1));
  const db = drizzle(workPool) as Db;
  const stop = new AbortController();
  const loops = targets.map(({ mode, chain }) =>
    runAsLeader(
      leaderPool,
      `usdt-payments:outbound:${mode}:${chain}`,
      async (signal) => {
        const config = await chainConfig(db, mode, chain, { fresh: true });
        if (!config) return;
        log.info("sending for chain", { mode, chain });
        await runOutbound(db, config, signal);
      },
      { stop: stop.signal, retryMs: opts.retryMs ?? 2_000 },
    ).catch((err: unknown) => log.error("outbound leader stopped", { mode, chain, error: String(err) })),
  );
  return {
    async stop() {
      stop.abort();
      await Promise.all(loops);
      await Promise.all([leaderPool.end(), workPool.end()]);
    },
  };
}
