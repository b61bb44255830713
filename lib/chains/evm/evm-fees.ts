import { createPublicClient, type Hex, http, type PublicClient } from "viem";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { maxOf, minOf } from "@/lib/kernel/bigint";

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** Nodes refuse a replacement that does not raise both fees by 10 %; 12.5 % leaves a margin for rounding. */
const BUMP_NUMERATOR = 1125n;
const BUMP_DENOMINATOR = 1000n;
const MIN_PRIORITY_FEE = 1_000_000_000n; // 1 gwei

/** Today's fees: the tip the node suggests (at least 1 gwei) over twice the next base fee (room for 6 full blocks). */
export async function marketFees(client: PublicClient): Promise<Fees> {
  const [block, tip] = await Promise.all([
    client.request({ method: "eth_getBlockByNumber", params: ["latest", false] }) as Promise<{
      baseFeePerGas?: Hex;
    } | null>,
    client.request({ method: "eth_maxPriorityFeePerGas" }).catch(() => null),
  ]);
  const baseFee = block?.baseFeePerGas ? BigInt(block.baseFeePerGas) : 0n;
  const suggested = tip ? BigInt(tip) : MIN_PRIORITY_FEE;
  const maxPriorityFeePerGas = suggested > MIN_PRIORITY_FEE ? suggested : MIN_PRIORITY_FEE;
  return { maxFeePerGas: baseFee * 2n + maxPriorityFeePerGas, maxPriorityFeePerGas };
}

const raise = (value: bigint) => (value * BUMP_NUMERATOR + BUMP_DENOMINATOR - 1n) / BUMP_DENOMINATOR;

/** The market's fees under the chain's cap (the tip never above the max fee). */
export function capped(fees: Fees, cap: bigint): Fees {
  const maxFeePerGas = minOf(fees.maxFeePerGas, cap);
  return { maxFeePerGas, maxPriorityFeePerGas: minOf(fees.maxPriorityFeePerGas, maxFeePerGas) };
}

/**
 * The fees of a replacement for `previous`: both raised by at least 12.5 % (and to the market if it is
 * higher), the max fee never above `cap`. Null when the cap leaves no valid replacement: the previous
 * candidate is then sent again as it is.
 */
export function bumpedFees(
  previous: { maxFeePerGas: bigint | null; maxPriorityFeePerGas: bigint | null },
  market: Fees,
  cap: bigint,
): Fees | null {
  const prevMax = previous.maxFeePerGas ?? 0n;
  const prevTip = previous.maxPriorityFeePerGas ?? 0n;
  const maxFeePerGas = maxOf(raise(prevMax), market.maxFeePerGas);
  const maxPriorityFeePerGas = maxOf(raise(prevTip), market.maxPriorityFeePerGas);
  const cappedMax = minOf(maxFeePerGas, cap);
  // Below +10 % on either fee the node would refuse it as underpriced: no replacement is possible.
  if (cappedMax * 10n < prevMax * 11n || maxPriorityFeePerGas > cappedMax) return null;
  return { maxFeePerGas: cappedMax, maxPriorityFeePerGas };
}

/** A token transfer's gas when estimation fails (evm-call.ts `fallbackGas`). */
const EVM_TRANSFER_GAS = 100_000n;

/** The wei one token transfer may cost at most at today's fees: its gas at the max fee for the next blocks. */
export async function evmGasNeeded(config: ChainConfig): Promise<bigint> {
  const client = createPublicClient({ transport: http(config.rpcUrl, { retryCount: 1, timeout: 15_000 }) });
  return EVM_TRANSFER_GAS * (await marketFees(client)).maxFeePerGas;
}
