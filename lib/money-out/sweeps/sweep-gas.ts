import { createPublicClient, http, type Address } from "viem";
import { tokenTransferData } from "@/lib/chains/evm/evm-token";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { marketFees } from "@/lib/chains/evm/evm-fees";
import { quoteTokenTransfer, type TronTransferQuote } from "@/lib/chains/tron/tron-fees";
import { TronNode } from "@/lib/chains/tron/tron-node";
import type { OutboundOptions } from "@/lib/money-out/outbound/outbound-types";
import { minOf } from "@/lib/kernel/bigint";

/**
 * The gas a sweep of `raw` from a deposit address needs, and the top-up that gives it exactly that:
 * - EVM: the transfer's estimated gas at today's max fee (the sweep is then signed with exactly these), less
 *   what the address already holds;
 * - Tron: the node's energy estimate for this transfer at today's price with the margin (its fee_limit), plus the
 *   bandwidth in case the address has no free bandwidth left, less what it holds;
 * - Solana: nothing (the sweeper pays the fee; deposit owners never hold SOL).
 */
export async function sweepGasPlan(
  config: ChainConfig,
  from: string,
  to: string,
  raw: bigint,
  nativeBalance: bigint,
): Promise<{ topupRaw: bigint; options: OutboundOptions }> {
  const short = (need: bigint) => shortOf(need, nativeBalance);
  if (config.family === "tron") {
    const node = new TronNode(config);
    return tronBurnPlan(
      await quoteTokenTransfer(node, config.tokenAddress, from, to, raw, config.maxFeeLimitSun!),
      nativeBalance,
    );
  }
  if (config.family === "solana") return { topupRaw: 0n, options: {} };
  const client = createPublicClient({
    transport: http(config.rpcUrl, { retryCount: 1, timeout: 15_000 }),
    cacheTime: 0,
  });
  const [gas, fees] = await Promise.all([
    client.estimateGas({
      account: from as Address,
      to: config.tokenAddress as Address,
      data: tokenTransferData(to, raw),
    }),
    marketFees(client),
  ]);
  const maxFeePerGas = config.maxFeeWei === null ? fees.maxFeePerGas : minOf(fees.maxFeePerGas, config.maxFeeWei);
  return {
    topupRaw: short(gas * maxFeePerGas),
    options: {
      evmGas: {
        limit: gas.toString(),
        maxFeePerGas: maxFeePerGas.toString(),
        maxPriorityFeePerGas: minOf(fees.maxPriorityFeePerGas, maxFeePerGas).toString(),
      },
    },
  };
}

const shortOf = (need: bigint, held: bigint) => (need > held ? need - held : 0n);

/** A Tron sweep that burns TRX for its energy: its fee_limit and one transfer's bandwidth, less what it holds. */
export const tronBurnPlan = (quote: TronTransferQuote, nativeBalance: bigint) => ({
  topupRaw: shortOf(quote.feeLimitSun + quote.bandwidthSun, nativeBalance),
  options: { feeLimitSun: quote.feeLimitSun.toString() } as OutboundOptions,
});
