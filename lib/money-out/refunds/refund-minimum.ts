import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import type { Chain } from "@/lib/kernel/chain-ids";
import type { Mode } from "@/lib/kernel/mode";
import { type AppConfig, config as appConfig } from "@/lib/platform/config/env";

/**
 * The smallest refund on a chain (USDT base units): below it the transfer's network fee, which the treasury
 * pays, would be worth more than the refund (docs/REFUNDS.md, "Minimum"). Live: the chain registry's,
 * `<CHAIN>_REFUND_MINIMUM` overrides; sandbox: `SANDBOX_REFUND_MINIMUM` on every chain (0.010000), dust only.
 */
export function refundMinimum(chain: Chain, mode: Mode, cfg: AppConfig = appConfig()): bigint {
  if (mode === "sandbox") return cfg.sandboxRefundMinimum;
  return cfg.chains[chain].refundMinimum ?? CHAIN_SPECS[chain].live.refundMinimumUnits;
}
