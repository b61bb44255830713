import { address as solanaAddress, createSolanaRpc } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { chainConfig } from "@/lib/chains/chain-config";
import { CHAIN_FAMILY, type Chain } from "@/lib/chains/chains";
import { watchKey } from "@/lib/chains/connect/watch-key";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { type Address, createPublicClient, http } from "viem";
import { sweeperContract } from "@/lib/chains/evm/deposit-sweeper";
import { DELEGATED_PAYOUT_BATCHER, payoutBatcherContract } from "@/lib/chains/evm/payout-batcher";

const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PeBEqRKn7KRwMt";

/**
 * Destinations a payout must never have (400 on `to_address`), checked in the database: the token contract
 * itself and the contracts the service deploys (tokens sent to them are lost), and the service's own deposit,
 * treasury and sweeper addresses (a payout to itself would move nothing but fees, and into a deposit address
 * would look like a payment).
 */
export async function ownDestinationProblem(db: Db, mode: Mode, chain: Chain, to: string): Promise<string | null> {
  const config = await chainConfig(db, mode, chain);
  const key = watchKey(chain, to);
  if (config && watchKey(chain, config.tokenAddress) === key)
    return "to_address is the USDT token contract itself: tokens sent there are lost; give the recipient's wallet address";
  const [deposit] = await query(db, "select 1 from payments where mode = $1 and watch_key = $2 limit 1", [mode, key]);
  if (deposit) return "to_address is one of this service's own deposit addresses; give the recipient's wallet address";
  const roles = await query<{ chain: Chain; role: string; address: string }>(
    db,
    "select chain, role, address from wallet_roles where mode = $1",
    [mode],
  );
  const own = roles.find((r) => CHAIN_FAMILY[r.chain] === CHAIN_FAMILY[chain] && watchKey(r.chain, r.address) === key);
  if (own) return `to_address is this service's own ${own.role} address; give the recipient's wallet address`;
  if (CHAIN_FAMILY[chain] === "evm" && serviceContracts(roles).has(key))
    return "to_address is one of this service's own contracts: USDT sent there cannot be moved again; give the recipient's wallet address";
  return null;
}

/**
 * The contracts the service deploys on EVM chains (their addresses are the same on every chain, CREATE2): the
 * payout batcher, the first design's delegated batcher, and each (treasury, sweeper) pair's deposit sweeper.
 * None can move USDT held at its own address.
 */
function serviceContracts(roles: { chain: Chain; role: string; address: string }[]): Set<string> {
  const evm = roles.filter((r) => CHAIN_FAMILY[r.chain] === "evm");
  const contracts = [payoutBatcherContract().address, DELEGATED_PAYOUT_BATCHER];
  for (const treasury of evm.filter((r) => r.role === "treasury"))
    for (const sweeper of evm.filter((r) => r.role === "sweeper" && r.chain === treasury.chain))
      contracts.push(sweeperContract(treasury.address, sweeper.address).address);
  return new Set(contracts.map((address) => watchKey("eth", address)));
}

/**
 * EVM: the destination must be an account a key controls, not a contract (tokens sent to one that cannot move
 * them are lost). An EIP-7702 delegated account (code `0xef0100` + an address) is a key's account and passes. A
 * network read: call it outside any database transaction.
 */
export async function evmContractProblem(rpcUrl: string, to: string): Promise<string | null> {
  const code = (await createPublicClient({ transport: http(rpcUrl) }).getCode({ address: to as Address })) ?? "0x";
  if (code === "0x" || /^0xef0100[0-9a-f]{40}$/i.test(code)) return null;
  return "to_address is a contract, not a wallet: USDT sent there may never be moved again; give a wallet address";
}

/**
 * Solana: the address must be a wallet (an owner), not a token account: the payout creates the owner's
 * associated token account, so a token account given as the owner would receive into an account nobody
 * can reach. A network read: call it outside any database transaction.
 */
export async function solanaTokenAccountProblem(rpcUrl: string, to: string): Promise<string | null> {
  const { value } = await createSolanaRpc(rpcUrl)
    .getAccountInfo(solanaAddress(to), { commitment: "confirmed", encoding: "base64" })
    .send();
  const owner = value?.owner as string | undefined;
  if (owner === TOKEN_PROGRAM_ADDRESS || owner === TOKEN_2022_PROGRAM)
    return "to_address is a token account, not a wallet: give the wallet (owner) address; its USDT account is derived from it";
  return null;
}
