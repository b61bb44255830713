import { tronToEvmHex } from "../addresses/tron-address";
import type { Chain } from "../chains";

/**
 * How a chain's watcher names an address when it matches transfers to payments: EVM and Tron logs carry
 * the 20-byte account as hex, so both use lowercase 0x-hex (a Tron T-address is base58check of 0x41 ‖
 * those bytes); Solana uses the base58 owner address itself.
 */
export function watchKey(chain: Chain, address: string): string {
  switch (chain) {
    case "eth":
    case "bnb":
    case "polygon":
      return address.toLowerCase();
    case "tron":
      return tronToEvmHex(address);
    case "solana":
      return address;
  }
}
