import type { Chain } from "@/lib/kernel/chain-ids";
import { CHAIN_SPECS } from "./chain-registry";

// Each chain's mainnet block explorer (the registry's row). Live mode only: sandbox chains are local.

export function explorerTxUrl(chain: Chain, txHash: string): string {
  return CHAIN_SPECS[chain].explorer.tx.replace("{tx}", encodeURIComponent(txHash));
}

export function explorerAddressUrl(chain: Chain, address: string): string {
  return CHAIN_SPECS[chain].explorer.address.replace("{address}", encodeURIComponent(address));
}
