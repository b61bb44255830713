import type { ChainConfig } from "@/lib/chains/chain-config";
import { familyTraits } from "@/lib/chains/family-traits";
import type { PayoutStrategy } from "@/lib/platform/config/chain-env";
import { type AppConfig, config as appConfig } from "@/lib/platform/config/env";

/**
 * How a chain's payouts are sent (docs/PAYOUTS.md, "Batched payouts"). EVM: `<CHAIN>_PAYOUT_STRATEGY` in either
 * mode, else `batch` live (a contract call: Ethereum, BNB Smart Chain and Polygon PoS) and
 * `SANDBOX_PAYOUT_STRATEGY` in sandbox. Tron and Solana: one transfer per payout.
 */
export function payoutStrategy(config: ChainConfig, cfg: AppConfig = appConfig()): PayoutStrategy {
  if (!familyTraits(config.chain).contractBatches) return "single";
  const chosen = cfg.chains[config.chain].payoutStrategy;
  if (chosen) return chosen;
  return config.mode === "sandbox" ? cfg.sandboxPayoutStrategy : "batch";
}
