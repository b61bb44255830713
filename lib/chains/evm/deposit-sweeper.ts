import { type Abi, type Address, concatHex, encodeAbiParameters, type Hex } from "viem";
import artifacts from "@/contracts/artifacts.json" with { type: "json" };
import { create2Deployment } from "./create2";

export const SWEEPER_ABI = artifacts.DepositSweeper.abi as Abi;

/**
 * `contracts/DepositSweeper.sol` for a treasury and its operator (the sweeper): its address and creation data,
 * one address per (treasury, sweeper) pair on every chain (CREATE2).
 */
export function sweeperContract(treasury: string, operator: string): { address: Address; deployData: Hex } {
  return create2Deployment(
    concatHex([
      artifacts.DepositSweeper.bytecode as Hex,
      encodeAbiParameters([{ type: "address" }, { type: "address" }], [treasury as Address, operator as Address]),
    ]),
  );
}
