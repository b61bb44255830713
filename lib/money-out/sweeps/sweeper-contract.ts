import { type Abi, type Address, concatHex, createPublicClient, encodeAbiParameters, type Hex, http } from "viem";
import artifacts from "@/contracts/artifacts.json" with { type: "json" };
import type { ChainConfig } from "@/lib/chains/chain-config";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { log } from "@/lib/platform/log";
import { createOutbound } from "@/lib/money-out/outbound/create-outbound";

import { CREATE2_DEPLOYER, create2Deployment } from "@/lib/chains/evm/create2";

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
 * The sweeper contract of a (mode, chain, treasury, sweeper), deployed once through the outbound journal:
 * when no code is at its address yet, a `deploy` intent (from the sweeper, to the CREATE2 deployer) is
 * recorded unless one is live or done (`outbound_one_deploy`). Returns its address and the deployment a
 * batch must wait for (`after`), null once the code is there.
 */
export async function ensureSweeperContract(
  db: Db,
  config: ChainConfig,
  treasury: string,
  sweeper: string,
): Promise<{ address: Address; after: string | null }> {
  const { address, deployData } = sweeperContract(treasury, sweeper);
  const client = createPublicClient({
    transport: http(config.rpcUrl, { retryCount: 1, timeout: 15_000 }),
    cacheTime: 0,
  });
  const code = await client.getCode({ address });
  if (code && code !== "0x") return { address, after: null };
  const live = () =>
    query<{ id: string; status: string }>(
      db,
      `select id, status from outbound_transactions
       where mode = $1 and chain = $2 and purpose = 'deploy' and cause_id = $3 and status not in ('reverted','expired')`,
      [config.mode, config.chain, address],
    );
  let [deployment] = await live();
  if (deployment?.status === "confirmed")
    throw new Error(
      `the sweeper contract's deployment confirmed but ${address} holds no code (reorganized deeper than the depth?)`,
    );
  if (!deployment) {
    const deployer = await client.getCode({ address: CREATE2_DEPLOYER });
    if (!deployer || deployer === "0x")
      throw new Error(
        `no CREATE2 deployer at ${CREATE2_DEPLOYER} on ${config.chain}: batched sweeps cannot deploy their contract ` +
          `(set ${config.chain.toUpperCase()}_SWEEP_STRATEGY=topup)`,
      );
    try {
      deployment = await inTransaction(db, (tx) =>
        createOutbound(tx, {
          mode: config.mode,
          chain: config.chain,
          purpose: "deploy",
          signer: { role: "sweeper" },
          fromAddress: sweeper,
          toAddress: CREATE2_DEPLOYER,
          asset: "native",
          rawAmount: 0n,
          causeId: address,
          options: { evmData: deployData },
        }),
      );
      log.info("sweeper contract deployment recorded", { mode: config.mode, chain: config.chain, address });
    } catch (err) {
      if (!String(err).includes("outbound_one_deploy")) throw err;
      [deployment] = await live(); // another planner recorded it first
    }
  }
  return { address, after: deployment!.id };
}
