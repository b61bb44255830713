import type { ChainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import { type AppConfig, config as appConfig } from "@/lib/platform/config/env";

/**
 * Live thresholds (USDT): below them a sweep's fee is not worth paying (eth gas is dear, polygon's cheap;
 * Tron burns TRX for energy). Dust stays on the deposit address, listed, until payouts need it.
 */
const LIVE_THRESHOLD_USDT: Record<Chain, bigint> = { eth: 100n, bnb: 10n, polygon: 5n, tron: 20n, solana: 5n };

/** The USDT (base units) a deposit address must hold before it is swept (`<CHAIN>_SWEEP_THRESHOLD`). */
export function sweepThreshold(config: ChainConfig, cfg: AppConfig = appConfig()): bigint {
  if (config.mode === "sandbox") return cfg.sandboxSweepThreshold;
  return cfg.chains[config.chain].sweepThreshold ?? LIVE_THRESHOLD_USDT[config.chain] * 1_000_000n;
}
