import { type Abi, type Address, encodeFunctionData, type Hex } from "viem";
import artifacts from "@/contracts/artifacts.json" with { type: "json" };
import { create2Deployment } from "@/lib/chains/evm/create2";
import { tokenTransferData } from "@/lib/chains/evm/evm-token";
import type { OutboundOptions } from "../../money-out/outbound/outbound-types";

export const PAYOUT_BATCHER_ABI = artifacts.PayoutBatcher.abi as Abi;

/**
 * `contracts/PayoutBatcher.sol`, the EIP-7702 delegate of the treasury: no constructor arguments (it trusts only
 * the account it runs as), so one CREATE2 address on every EVM chain, known before it is deployed.
 */
export function payoutBatcherContract(): { address: Address; deployData: Hex } {
  return create2Deployment(artifacts.PayoutBatcher.bytecode as Hex);
}

/** The treasury's call to itself: `payMany(token, recipients, amounts)`, one transfer per payout. */
export function payManyCall(
  treasury: string,
  token: string,
  payouts: { to: string; raw: bigint }[],
): { to: Address; data: Hex; value: bigint } {
  return {
    to: treasury as Address,
    data: encodeFunctionData({
      abi: PAYOUT_BATCHER_ABI,
      functionName: "payMany",
      args: [token as Address, payouts.map((p) => p.to as Address), payouts.map((p) => p.raw)],
    }),
    value: 0n,
  };
}

type PayoutBatch = NonNullable<OutboundOptions["payoutBatch"]>;

/**
 * What a payout batch's transaction calls: with one member, a plain transfer to it (the contract would only
 * add gas); with more, the treasury's `payMany` on itself.
 */
export function payoutBatchCall(batch: PayoutBatch, treasury: string, token: string) {
  const [first, ...rest] = batch.members;
  if (first && !rest.length)
    return { to: token as Address, data: tokenTransferData(first.address, BigInt(first.raw)), value: 0n };
  return payManyCall(
    treasury,
    token,
    batch.members.map((m) => ({ to: m.address, raw: BigInt(m.raw) })),
  );
}

/**
 * The gas limit of a batch of two or more, not estimated: its members are only fixed when it is signed, and
 * the treasury's own authorization (signed with the transaction's nonce) cannot be simulated before. Generous
 * (a mainnet USDT transfer to a fresh holder costs ~45,000 inside a call); only the gas used is paid.
 */
export const payoutBatchGas = (members: number, authorizations: number) =>
  60_000n + 100_000n * BigInt(members) + 25_000n * BigInt(authorizations);
