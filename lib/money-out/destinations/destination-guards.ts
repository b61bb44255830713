import { address as solanaAddress, createSolanaRpc } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { chainConfig } from "@/lib/chains/chain-config";
import { CHAIN_FAMILY, type Chain } from "@/lib/chains/chains";
import { watchKey } from "@/lib/chains/connect/watch-key";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";

const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PeBEqRKn7KRwMt";

/**
 * Destinations a payout must never have (400 on `to_address`), checked in the database: the token contract
 * itself (tokens sent to it are lost), and the service's own deposit, treasury and sweeper addresses (a
 * payout to itself would move nothing but fees, and into a deposit address would look like a payment).
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
  return null;
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
