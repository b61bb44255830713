import { type ChainLeaders, runChainLeaders } from "@/lib/chains/connect/run-chain-leaders";
import { log } from "@/lib/platform/log";
import { runOutbound } from "./run-outbound";

/**
 * One outbound leader per enabled (mode, chain) across all worker instances (lib/chains/connect/run-chain-leaders.ts,
 * as the watchers have): the only process that signs, sends and tracks that chain's outbound transactions, so
 * two instances never race for a nonce. WATCH_CHAINS limits the chains as it does for the watchers.
 */
export function startOutboundLeaders(
  databaseUrl: string,
  opts: Parameters<typeof runChainLeaders>[3] = {},
): ChainLeaders {
  return runChainLeaders(
    databaseUrl,
    "outbound",
    async (db, config, signal) => {
      log.info("sending for chain", { mode: config.mode, chain: config.chain });
      await runOutbound(db, config, signal);
    },
    opts,
  );
}
