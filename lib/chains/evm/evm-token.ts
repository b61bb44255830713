import { type Address, encodeFunctionData, type Hex } from "viem";

/**
 * `transfer` declared without outputs: mainnet USDT on Ethereum returns nothing, so a standard ERC-20
 * ABI (which expects a bool) breaks against it. Without outputs the call data is the same for both kinds.
 * The checkout's wallet (a client component) imports it too: this module must import nothing but viem.
 */
export const TRANSFER_ABI = [
  {
    type: "function",
    name: "transfer",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
    ],
    outputs: [],
  },
] as const;

/** The call data of the token's `transfer(to, rawAmount)`: one encoding for every EVM sender in the service. */
export function tokenTransferData(to: string, rawAmount: bigint): Hex {
  return encodeFunctionData({ abi: TRANSFER_ABI, functionName: "transfer", args: [to as Address, rawAmount] });
}
