import type { ChainConfig } from "@/lib/chains/chain-config";
import { familyTraits } from "@/lib/chains/family-traits";
import type { SweepStrategy } from "@/lib/platform/config/chain-env";
import { type AppConfig, config as appConfig } from "@/lib/platform/config/env";

/**
 * How a chain's deposit addresses are swept (docs/CUSTODY.md, "Sweeps"). EVM: `<CHAIN>_SWEEP_STRATEGY` in
 * either mode, else batched EIP-7702 sweeps: Ethereum (Pectra), BNB Smart Chain (Pascal) and Polygon PoS
 * (Bhilai) all run EIP-7702, and a deposit address that never holds gas costs no top-up transaction and no
 * stranded gas; sandbox, `SANDBOX_SWEEP_STRATEGY` (the anvils run Prague). Tron and Solana: always their own
 * way (a TRX top-up; the sweeper as Solana fee payer), reported as `topup`.
 */
export function sweepStrategy(config: ChainConfig, cfg: AppConfig = appConfig()): SweepStrategy {
  if (!familyTraits(config.chain).contractBatches) return "topup";
  const chosen = cfg.chains[config.chain].sweepStrategy;
  if (chosen) return chosen;
  return config.mode === "sandbox" ? cfg.sandboxSweepStrategy : "batch7702";
}
