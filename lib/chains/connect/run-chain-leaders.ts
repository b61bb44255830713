import type pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { config as appConfig } from "@/lib/platform/config/env";
import { createPool, type Db } from "@/lib/platform/db/client";
import { runAsLeader } from "@/lib/platform/db/advisory-lock";
import { log } from "@/lib/platform/log";
import type { Mode } from "@/lib/kernel/mode";
import { chainConfig, type ChainConfig } from "../chain-config";
import { leadOnRightNetwork } from "./network-identity";
import { enabledChains, type Chain } from "../chains";

export interface ChainLeaders {
  stop(): Promise<void>;
}

/**
 * One loop per enabled (mode, chain), each a single leader across all worker instances (a session advisory
 * lock `usdt-payments:<role>:<mode>:<chain>` on its own connection): the chain watchers, the outbound senders.
 * WATCH_CHAINS limits this process to some chains (dedicated instances). A chain with no configuration yet (a
 * sandbox chain still starting) is looked for again every few seconds; when `lead` returns, leadership is
 * released and taken again, with the chain's configuration reloaded. A live chain leads only while its RPC
 * URL serves the right network (lib/chains/connect/network-identity.ts); the others run on.
 */
export function runChainLeaders(
  databaseUrl: string,
  role: "watch" | "outbound",
  lead: (db: Db, config: ChainConfig, signal: AbortSignal) => Promise<void>,
  opts: {
    retryMs?: number;
    networkCheckMs?: number;
    /** Told why a live chain is not led (its endpoint serves another network, or could not be asked). */
    onNetworkRefused?: (db: Db, config: ChainConfig, reason: string) => void;
  } = {},
): ChainLeaders {
  const only = appConfig().watchChains;
  const targets = (["sandbox", "live"] as const).flatMap((mode: Mode) =>
    enabledChains(mode)
      .filter((c) => !only || only.includes(c))
      .map((chain: Chain) => ({ mode, chain })),
  );
  // Leadership connections are held for as long as a loop leads: they get a pool of their own, and the work
  // another, so neither starves the job runner's pool.
  const leaderPool: pg.Pool = createPool(databaseUrl, Math.max(1, targets.length));
  const workPool = createPool(databaseUrl, Math.max(2, targets.length + 1));
  const db = drizzle(workPool) as Db;
  const stop = new AbortController();
  const loops = targets.map(({ mode, chain }) =>
    runAsLeader(
      leaderPool,
      `usdt-payments:${role}:${mode}:${chain}`,
      async (signal) => {
        const config = await chainConfig(db, mode, chain, { fresh: true });
        if (!config) return; // not running (yet); leadership is released and taken again later
        await leadOnRightNetwork(config, signal, (guarded) => lead(db, config, guarded), {
          checkMs: opts.networkCheckMs,
          onRefused: (reason, proven) => {
            const fields = { mode, chain, role, reason };
            if (proven) log.error(`chain ${chain} stopped: wrong network`, fields);
            else log.warn(`chain ${chain} waits: its network could not be checked`, fields);
            opts.onNetworkRefused?.(db, config, reason);
          },
        });
      },
      { stop: stop.signal, retryMs: opts.retryMs ?? 2_000 },
    ).catch((err: unknown) => log.error(`chain ${role} leader stopped`, { mode, chain, error: String(err) })),
  );
  return {
    async stop() {
      stop.abort();
      await Promise.all(loops);
      await Promise.all([leaderPool.end(), workPool.end()]);
    },
  };
}
