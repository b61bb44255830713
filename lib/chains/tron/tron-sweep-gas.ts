import type { ChainConfig } from "../chain-config";
import { maxOf } from "@/lib/kernel/bigint";
import type { SweepGas } from "../outbound-intent";
import { quoteTokenTransfer, type TronTransferQuote } from "./tron-fees";
import { TronNode } from "./tron-node";
import { stakedSweepPlan } from "./tron-staked-sweep";

/**
 * A Tron sweep's energy, by TRON_ENERGY_STRATEGY (docs/CUSTODY.md, "Tron energy"): `burn` pays TRX for it, the
 * node's energy estimate for this transfer at today's price with the margin (its fee_limit), plus the bandwidth in
 * case the address has no free bandwidth left, less what it holds; `stake` lends it the treasury's (the sweep's
 * destination's) staked energy (tron-staked-sweep.ts).
 */
export async function tronSweepGas(
  config: ChainConfig,
  from: string,
  to: string,
  raw: bigint,
  nativeBalance: bigint,
  lendingInFlight: () => Promise<bigint>,
): Promise<SweepGas> {
  const node = new TronNode(config);
  const quote = await quoteTokenTransfer(node, config.tokenAddress, from, to, raw, config.maxFeeLimitSun!);
  const lent =
    config.tronEnergyStrategy === "stake"
      ? await stakedSweepPlan(
          config,
          node,
          { deposit: from, treasury: to, nativeBalance, transfer: quote },
          lendingInFlight,
        )
      : null;
  return lent ?? tronBurnPlan(quote, nativeBalance);
}

/** A burning sweep's top-up and fee_limit, from a transfer's quote. */
export const tronBurnPlan = (quote: TronTransferQuote, nativeBalance: bigint): SweepGas => ({
  topupRaw: maxOf(quote.feeLimitSun + quote.bandwidthSun - nativeBalance, 0n),
  options: { feeLimitSun: quote.feeLimitSun.toString() },
});
