import { DomainError } from "@/lib/kernel/domain-error";
import { chainConfig } from "@/lib/chains/chain-config";
import type { Db } from "@/lib/platform/db/client";
import type { Mode } from "@/lib/kernel/mode";
import { ownDestinationProblem } from "@/lib/money-out/destinations/destination-guards";
import type { Chain } from "@/lib/chains/chains";
import { destinationProblem } from "@/lib/chains/connect/chain-families";

const refuse = (problem: string) => new DomainError("invalid_request_error", problem, { param: "to_address" });

/**
 * Creating a payout or a refund, first phase (in the request's short transaction): the destination guards the database
 * can answer. Returns the network check still to run outside any transaction (Solana: is it a token account? EVM:
 * is it a contract?).
 */
export async function prepareDestinationCheck(
  db: Db,
  owner: { mode: Mode },
  input: { chain: Chain; to_address: string },
): Promise<() => Promise<void>> {
  const problem = await ownDestinationProblem(db, owner.mode, input.chain, input.to_address);
  if (problem) throw refuse(problem);
  const config = await chainConfig(db, owner.mode, input.chain);
  if (!config) return async () => {};
  return async () => {
    const onChain = await destinationProblem(config, input.to_address);
    if (onChain) throw refuse(onChain);
  };
}
