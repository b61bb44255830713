import type { ChainConfig } from "@/lib/chains/chain-config";
import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import { type AppConfig, config as appConfig } from "@/lib/platform/config/env";

// Live thresholds are the chain registry's: below them a sweep's fee is not worth paying. Dust stays on the
// deposit address, listed, until payouts need it.

/** The USDT (base units) a deposit address must hold before it is swept (`<CHAIN>_SWEEP_THRESHOLD`). */
export function sweepThreshold(config: ChainConfig, cfg: AppConfig = appConfig()): bigint {
  if (config.mode === "sandbox") return cfg.sandboxSweepThreshold;
  return cfg.chains[config.chain].sweepThreshold ?? CHAIN_SPECS[config.chain].live.sweepThresholdUsdt * 1_000_000n;
}
