import type { ChainConfig } from "../chain-config";
import { maxOf } from "@/lib/kernel/bigint";
import type { SweepGas } from "../outbound-intent";
import { quoteTokenTransfer, type TronTransferQuote } from "./tron-fees";
import { TronNode } from "./tron-node";

/**
 * A Tron sweep that burns TRX for its energy: the node's energy estimate for this transfer at today's price with
 * the margin (its fee_limit), plus the bandwidth in case the address has no free bandwidth left, less what it holds.
 */
export async function tronSweepGas(
  config: ChainConfig,
  from: string,
  to: string,
  raw: bigint,
  nativeBalance: bigint,
): Promise<SweepGas> {
  const quote = await quoteTokenTransfer(
    new TronNode(config),
    config.tokenAddress,
    from,
    to,
    raw,
    config.maxFeeLimitSun!,
  );
  return tronBurnPlan(quote, nativeBalance);
}

/** A burning sweep's top-up and fee_limit, from a transfer's quote. */
export const tronBurnPlan = (quote: TronTransferQuote, nativeBalance: bigint): SweepGas => ({
  topupRaw: maxOf(quote.feeLimitSun + quote.bandwidthSun - nativeBalance, 0n),
  options: { feeLimitSun: quote.feeLimitSun.toString() },
});
