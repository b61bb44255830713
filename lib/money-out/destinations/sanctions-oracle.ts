import { createPublicClient, http, parseAbi, type Address } from "viem";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { log } from "@/lib/platform/log";
import type { OutboundRow } from "@/lib/money-out/outbound/outbound-row";

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

/**
 * The oracle's answer for a payout's destination, or null when it cannot be read now (logged without the
 * RPC URL, which may carry a key). Non-payout transfers are never checked.
 */
export async function sanctionedOrUnknown(config: ChainConfig, subject: string, address: string) {
  try {
    return await isSanctionedOnChain(config, address);
  } catch (err) {
    const reason = (err as { shortMessage?: string }).shortMessage ?? (err as Error).name;
    log.warn("the sanctions oracle could not be read: the payout waits", { chain: config.chain, subject, reason });
    return null;
  }
}

/** For the outbound leader, before it signs a payout's transfer. */
export function sanctionedBeforeSigning(config: ChainConfig, intent: OutboundRow): Promise<boolean | null> {
  if (intent.purpose !== "payout" || !config.sanctionsOracle) return Promise.resolve(false);
  return sanctionedOrUnknown(config, intent.causeId ?? intent.id, intent.toAddress);
}
