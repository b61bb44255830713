import { type Abi, type Address, concatHex, encodeAbiParameters, type Hex } from "viem";
import artifacts from "@/contracts/artifacts.json" with { type: "json" };
import type { ChainConfig } from "@/lib/chains/chain-config";
import type { Db } from "@/lib/platform/db/client";
import { ensureContract } from "@/lib/money-out/outbound/ensure-contract";
import { create2Deployment } from "@/lib/chains/evm/create2";

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

/**
 * The sweeper contract of a (mode, chain, treasury, sweeper), deployed once through the outbound journal by
 * the sweeper (lib/money-out/outbound/ensure-contract.ts). Returns its address and the deployment a batch must
 * wait for (`after`), null once the code is there.
 */
export function ensureSweeperContract(
  db: Db,
  config: ChainConfig,
  treasury: string,
  sweeper: string,
): Promise<{ address: Address; after: string | null }> {
  return ensureContract(db, config, {
    name: "sweeper contract",
    ...sweeperContract(treasury, sweeper),
    deployer: { role: "sweeper", address: sweeper },
    otherwise: `set ${config.chain.toUpperCase()}_SWEEP_STRATEGY=topup`,
  });
}
