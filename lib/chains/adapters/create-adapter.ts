import type { ChainConfig } from "@/lib/chains/chain-config";
import { EvmAdapter } from "./evm-adapter";
import type { ChainAdapter } from "./types";
import { CHAIN_FAMILY, type Chain, type ChainFamily } from "@/lib/chains/chains";

const FAMILIES_WITH_ADAPTERS: ChainFamily[] = ["evm"];

/** Whether the service can watch this chain yet. */
export function hasChainAdapter(chain: Chain): boolean {
  return FAMILIES_WITH_ADAPTERS.includes(CHAIN_FAMILY[chain]);
}

/** The adapter for a chain's family, built from its configuration (sandbox or live alike). */
export function createChainAdapter(config: ChainConfig): ChainAdapter {
  switch (config.family) {
    case "evm":
      return new EvmAdapter(config.chain, config);
    default:
      throw new Error(`no chain adapter for the ${config.family} family yet`);
  }
}
