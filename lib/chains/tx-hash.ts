import { base58 } from "@scure/base";
import { CHAIN_FAMILY, type Chain } from "./chains";

/**
 * A transaction id as the chain's family writes it, or null when it cannot be one: EVM 0x + 64 hex (lower case),
 * Tron 64 hex without 0x (as Tron shows it; a 0x prefix is dropped), Solana a base58 signature (64 bytes).
 */
export function normalizeTxHash(chain: Chain, hash: string): string | null {
  switch (CHAIN_FAMILY[chain]) {
    case "evm":
      return /^0x[0-9a-fA-F]{64}$/.test(hash) ? hash.toLowerCase() : null;
    case "tron":
      return /^(0x)?[0-9a-fA-F]{64}$/.test(hash) ? hash.replace(/^0x/, "").toLowerCase() : null;
    case "solana":
      return /^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(hash) && base58.decode(hash).length === 64 ? hash : null;
  }
}
