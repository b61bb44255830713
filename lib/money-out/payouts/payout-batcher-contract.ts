import { type Abi, type Address, encodeFunctionData, type Hex } from "viem";
import artifacts from "@/contracts/artifacts.json" with { type: "json" };
import { create2Deployment } from "@/lib/chains/evm/create2";

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
