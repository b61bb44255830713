import { createPublicClient, http, type Address } from "viem";
import type { ChainConfig } from "../chain-config";
import type { SweepGas } from "../outbound-intent";
import { marketFees } from "./evm-fees";
import { tokenTransferData } from "./evm-token";
import { maxOf, minOf } from "@/lib/kernel/bigint";

/**
 * An EVM sweep's gas: the transfer's estimated gas at today's max fee (the sweep is then signed with exactly
 * these), less what the address already holds.
 */
export async function evmSweepGas(
  config: ChainConfig,
  from: string,
  to: string,
  raw: bigint,
  nativeBalance: bigint,
): Promise<SweepGas> {
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
    topupRaw: maxOf(gas * maxFeePerGas - nativeBalance, 0n),
    options: {
      evmGas: {
        limit: gas.toString(),
        maxFeePerGas: maxFeePerGas.toString(),
        maxPriorityFeePerGas: minOf(fees.maxPriorityFeePerGas, maxFeePerGas).toString(),
      },
    },
  };
}
