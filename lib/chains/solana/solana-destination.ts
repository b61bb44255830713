import { address as solanaAddress, createSolanaRpc } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { ChainConfig } from "../chain-config";

const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PeBEqRKn7KRwMt";

/**
 * The address must be a wallet (an owner), not a token account: a payout creates the owner's associated token
 * account, so a token account given as the owner would receive into an account nobody can reach. A network
 * read: call it outside any database transaction.
 */
export async function solanaTokenAccountProblem(config: ChainConfig, to: string): Promise<string | null> {
  const { value } = await createSolanaRpc(config.rpcUrl)
    .getAccountInfo(solanaAddress(to), { commitment: "confirmed", encoding: "base64" })
    .send();
  const owner = value?.owner as string | undefined;
  if (owner === TOKEN_PROGRAM_ADDRESS || owner === TOKEN_2022_PROGRAM)
    return (
      "to_address is a token account, not a wallet: " +
      "give the wallet (owner) address; its USDT account is derived from it"
    );
  return null;
}
