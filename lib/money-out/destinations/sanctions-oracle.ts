import { createPublicClient, http, parseAbi, type Address } from "viem";
import type { ChainConfig } from "@/lib/chains/chain-config";

// Chainalysis' on-chain sanctions oracle interface (the same on every EVM chain it is deployed to).
const ORACLE_ABI = parseAbi(["function isSanctioned(address addr) view returns (bool)"]);

/**
 * Whether the chain's sanctions oracle (`<CHAIN>_SANCTIONS_ORACLE`, live EVM) lists `address`; false where none
 * is configured. A network read: never inside a database transaction. Throws when the oracle cannot be read,
 * so callers hold the payout rather than pay an address nobody could check (fail closed).
 */
export async function isSanctionedOnChain(config: ChainConfig, address: string): Promise<boolean> {
  if (!config.sanctionsOracle) return false;
  const client = createPublicClient({ transport: http(config.rpcUrl, { retryCount: 1 }) });
  return client.readContract({
    address: config.sanctionsOracle as Address,
    abi: ORACLE_ABI,
    functionName: "isSanctioned",
    args: [address as Address],
  });
}
