import { type Address, createPublicClient, http } from "viem";
import type { ChainConfig } from "../chain-config";
import { sweeperContract } from "./deposit-sweeper";
import { DELEGATED_PAYOUT_BATCHER, payoutBatcherContract } from "./payout-batcher";

/**
 * The contracts the service deploys on EVM chains (their addresses are the same on every chain, CREATE2): the
 * payout batcher, the first design's delegated batcher, and each (treasury, sweeper) pair's deposit sweeper.
 * None can move USDT held at its own address.
 */
export function evmServiceContracts(roles: { chain: string; role: string; address: string }[]): string[] {
  const contracts = [payoutBatcherContract().address, DELEGATED_PAYOUT_BATCHER];
  for (const treasury of roles.filter((r) => r.role === "treasury"))
    for (const sweeper of roles.filter((r) => r.role === "sweeper" && r.chain === treasury.chain))
      contracts.push(sweeperContract(treasury.address, sweeper.address).address);
  return contracts;
}

/**
 * The destination must be an account a key controls, not a contract (tokens sent to one that cannot move them
 * are lost). An EIP-7702 delegated account (code `0xef0100` + an address) is a key's account and passes. A
 * network read: call it outside any database transaction.
 */
export async function evmContractProblem(config: ChainConfig, to: string): Promise<string | null> {
  const client = createPublicClient({ transport: http(config.rpcUrl) });
  const code = (await client.getCode({ address: to as Address })) ?? "0x";
  if (code === "0x" || /^0xef0100[0-9a-f]{40}$/i.test(code)) return null;
  return "to_address is a contract, not a wallet: USDT sent there may never be moved again; give a wallet address";
}
