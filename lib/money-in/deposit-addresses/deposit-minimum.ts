import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import type { Chain } from "@/lib/kernel/chain-ids";
import type { Mode } from "@/lib/kernel/mode";
import { type AppConfig, config as appConfig } from "@/lib/platform/config/env";

/**
 * The smallest transfer to a deposit address that is credited (USDT base units); below it a deposit is dust,
 * recorded as `ignored_below_minimum` (docs/DEPOSITS.md). Live: the chain registry's, `<CHAIN>_DEPOSIT_MINIMUM`
 * overrides; sandbox: `SANDBOX_DEPOSIT_MINIMUM` on every chain (0.010000).
 */
export function depositMinimum(chain: Chain, mode: Mode, cfg: AppConfig = appConfig()): bigint {
  if (mode === "sandbox") return cfg.sandboxDepositMinimum;
  return cfg.chains[chain].depositMinimum ?? CHAIN_SPECS[chain].live.depositMinimumUnits;
}
