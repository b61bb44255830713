import type { Address, Hex } from "viem";
import { tokenTransferData } from "@/lib/chains/evm/evm-token";
import type { ChainConfig } from "@/lib/chains/chain-config";
import type { OutboundIntent } from "../outbound-intent";
import { batchCall, batchFallbackGas } from "./evm-batch";
import { payoutBatchCall, payoutBatchGas } from "./payout-batcher";

export type EvmCall = { to: Address; data?: Hex; value: bigint };

/**
 * What an intent's transaction calls: a batched sweep's `sweepMany`, a payout batch (the treasury's `payMany`
 * on itself, or one member's transfer), given call data (a contract's creation
 * through the CREATE2 deployer), native coin, or a token transfer.
 */
export function evmCall(config: ChainConfig, intent: OutboundIntent): EvmCall {
  if (intent.options.batch) return batchCall(intent.options.batch, config.tokenAddress);
  if (intent.options.payoutBatch)
    return payoutBatchCall(intent.options.payoutBatch, intent.fromAddress, config.tokenAddress);
  const value = intent.asset === "native" ? intent.rawAmount : 0n;
  if (intent.options.evmData) return { to: intent.toAddress as Address, data: intent.options.evmData as Hex, value };
  if (intent.asset === "native") return { to: intent.toAddress as Address, value };
  return {
    to: config.tokenAddress as Address,
    data: tokenTransferData(intent.toAddress, intent.rawAmount),
    value: 0n,
  };
}

/** Gas when estimation fails (e.g. the transfer would revert: it is sent anyway and fails on chain, visibly). */
export function fallbackGas(intent: OutboundIntent, authorizations: number): bigint {
  if (intent.options.batch) return batchFallbackGas(intent.options.batch, authorizations);
  if (intent.options.payoutBatch && intent.options.payoutBatch.members.length > 1)
    return payoutBatchGas(intent.options.payoutBatch.members.length, authorizations);
  if (intent.options.evmData) return 1_500_000n;
  return intent.asset === "native" ? 21_000n : 100_000n;
}
