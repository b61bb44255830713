import { type Abi, type Address, encodeFunctionData, type Hex, maxUint256, parseAbi, type PublicClient } from "viem";
import artifacts from "@/contracts/artifacts.json" with { type: "json" };
import { create2Deployment } from "@/lib/chains/evm/create2";
import { tokenTransferData } from "@/lib/chains/evm/evm-token";
import type { OutboundOptions } from "../outbound-intent";

export const PAYOUT_BATCHER_ABI = artifacts.PayoutBatcher.abi as Abi;

/**
 * The first PayoutBatcher, an EIP-7702 delegate of the treasury (`payMany` ran as the treasury's own code, called
 * on the treasury). Batches recorded for it before the allowance design go as they were signed: a call of the
 * treasury to itself, which its delegation turns into the transfers. None is recorded any more.
 */
export const DELEGATED_PAYOUT_BATCHER = "0xe208179893595D3bcc4Cc078167a45be6d460b17" as Address;

export const isDelegatedBatcher = (contract: string) =>
  contract.toLowerCase() === DELEGATED_PAYOUT_BATCHER.toLowerCase();

/**
 * `contracts/PayoutBatcher.sol`: no constructor arguments (it only spends its caller's allowance), so one CREATE2
 * address on every EVM chain, known before it is deployed.
 */
export function payoutBatcherContract(): { address: Address; deployData: Hex } {
  return create2Deployment(artifacts.PayoutBatcher.bytecode as Hex);
}

/** `payMany(token, recipients, amounts)` called on `target`: the PayoutBatcher (or a delegated treasury). */
export function payManyCall(
  target: string,
  token: string,
  payouts: { to: string; raw: bigint }[],
): { to: Address; data: Hex; value: bigint } {
  return {
    to: target as Address,
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
 * add gas); with more, the PayoutBatcher's `payMany` (a batch of the delegated design: the treasury's own).
 */
export function payoutBatchCall(batch: PayoutBatch, treasury: string, token: string) {
  const [first, ...rest] = batch.members;
  if (first && !rest.length)
    return { to: token as Address, data: tokenTransferData(first.address, BigInt(first.raw)), value: 0n };
  const target = isDelegatedBatcher(batch.contract) ? treasury : batch.contract;
  return payManyCall(
    target,
    token,
    batch.members.map((m) => ({ to: m.address, raw: BigInt(m.raw) })),
  );
}

/**
 * The gas limit of a batch of two or more, not estimated: its members are only fixed when it is signed (and a
 * delegated design's batch could carry the treasury's own authorization, which cannot be simulated before).
 * Generous (a mainnet USDT `transferFrom` to a fresh holder costs ~50,000 inside a call); only the gas used is paid.
 */
export const payoutBatchGas = (members: number, authorizations: number) =>
  60_000n + 100_000n * BigInt(members) + 25_000n * BigInt(authorizations);

export const ALLOWANCE_ABI = parseAbi([
  "function approve(address spender, uint256 value)",
  "function allowance(address owner, address spender) view returns (uint256)",
]);

/** What `owner` allows `spender` of the token: the setup's check and the signing driver's guard read it alike. */
export function readAllowance(client: PublicClient, token: string, owner: string, spender: string): Promise<bigint> {
  return client.readContract({
    address: token as Address,
    abi: ALLOWANCE_ABI,
    functionName: "allowance",
    args: [owner as Address, spender as Address],
  });
}

/**
 * The treasury's one approval of the PayoutBatcher: the largest allowance, which mainnet USDT on Ethereum never
 * decrements (BNB Smart Chain's and Polygon's do, by what is paid: 2^256 − 1 base units are never spent).
 * `approve` declared without outputs, as mainnet USDT returns none.
 */
export function approveBatcherData(batcher: string): Hex {
  return encodeFunctionData({ abi: ALLOWANCE_ABI, functionName: "approve", args: [batcher as Address, maxUint256] });
}

/** Below this allowance the treasury approves again (it never gets there: see approveBatcherData). */
export const ALLOWANCE_LOW_WATER = maxUint256 / 2n;
