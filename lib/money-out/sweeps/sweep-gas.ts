import { createPublicClient, http, type Address } from "viem";
import { tokenTransferData } from "@/lib/chains/evm/evm-token";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { marketFees } from "@/lib/chains/evm/evm-fees";
import { DEFAULT_FEE_LIMIT_SUN } from "@/lib/chains/tron/tron-fees";
import type { OutboundOptions } from "@/lib/money-out/outbound/outbound-types";
import { minOf } from "@/lib/kernel/bigint";

/** Tron: the most TRX a sweep may burn, the driver's default fee limit (a USDT transfer takes up to ~130k energy). */
const TRON_SWEEP_FEE_LIMIT_SUN = DEFAULT_FEE_LIMIT_SUN;

/**
 * The gas a sweep of `raw` from a deposit address needs, and the top-up that gives it exactly that:
 * - EVM: the transfer's estimated gas at today's max fee (the sweep is then signed with exactly these), less
 *   what the address already holds;
 * - Tron: the fee limit in TRX, less what it holds;
 * - Solana: nothing (the sweeper pays the fee; deposit owners never hold SOL).
 */
export async function sweepGasPlan(
  config: ChainConfig,
  from: string,
  to: string,
  raw: bigint,
  nativeBalance: bigint,
): Promise<{ topupRaw: bigint; options: OutboundOptions }> {
  const short = (need: bigint) => (need > nativeBalance ? need - nativeBalance : 0n);
  if (config.family === "tron")
    return { topupRaw: short(TRON_SWEEP_FEE_LIMIT_SUN), options: { feeLimitSun: TRON_SWEEP_FEE_LIMIT_SUN.toString() } };
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
