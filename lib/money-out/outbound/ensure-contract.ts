import { type Address, createPublicClient, type Hex, http } from "viem";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { CREATE2_DEPLOYER } from "@/lib/chains/evm/create2";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { log } from "@/lib/platform/log";
import type { WalletRole } from "@/lib/chains/wallets/wallet-roles";
import { createOutbound } from "./create-outbound";

export interface ContractToEnsure {
  /** What it is, for logs and errors ("sweeper contract", "PayoutBatcher"). */
  name: string;
  /** Its CREATE2 address and the deployer's call data (lib/chains/evm/create2.ts). */
  address: Address;
  deployData: Hex;
  /** The role that sends (and pays for) the deployment, and its address. */
  deployer: { role: WalletRole; address: string };
  /** What to tell an operator whose chain has no CREATE2 deployer. */
  otherwise: string;
}

/**
 * A service contract of a (mode, chain), deployed once through the outbound journal: when no code is at its
 * address yet, a `deploy` intent (to the CREATE2 deployer) is recorded unless one is live or done
 * (`outbound_one_deploy`). Returns its address and the deployment what uses it must wait for (`after`), null
 * once the code is there. Network reads only outside a transaction.
 */
export async function ensureContract(
  db: Db,
  config: ChainConfig,
  contract: ContractToEnsure,
): Promise<{ address: Address; after: string | null }> {
  const { address, deployData } = contract;
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
       where mode = $1 and chain = $2 and purpose = 'deploy' and cause_id = $3
       and status not in ('reverted','expired')`,
      [config.mode, config.chain, address],
    );
  let [deployment] = await live();
  if (deployment?.status === "confirmed")
    throw new Error(
      `the ${contract.name}'s deployment confirmed but ${address} holds no code (reorganized deeper than the depth?)`,
    );
  if (!deployment) {
    const deployer = await client.getCode({ address: CREATE2_DEPLOYER });
    if (!deployer || deployer === "0x")
      throw new Error(
        `no CREATE2 deployer at ${CREATE2_DEPLOYER} on ${config.chain}: ` +
          `the ${contract.name} cannot be deployed (${contract.otherwise})`,
      );
    try {
      deployment = await inTransaction(db, (tx) =>
        createOutbound(tx, {
          mode: config.mode,
          chain: config.chain,
          purpose: "deploy",
          signer: { role: contract.deployer.role },
          fromAddress: contract.deployer.address,
          toAddress: CREATE2_DEPLOYER,
          asset: "native",
          rawAmount: 0n,
          causeId: address,
          options: { evmData: deployData },
        }),
      );
      log.info(`${contract.name} deployment recorded`, { mode: config.mode, chain: config.chain, address });
    } catch (err) {
      if (!String(err).includes("outbound_one_deploy")) throw err;
      [deployment] = await live(); // another process recorded it first
    }
  }
  return { address, after: deployment!.id };
}
