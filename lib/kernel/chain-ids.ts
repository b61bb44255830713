/**
 * The API's chain values. In the kernel because every layer names chains: the configuration schema builds
 * its per-chain variables from this list, and lib/chains/chains.ts (which reads the configuration) re-exports it.
 */
export const CHAINS = ["eth", "bnb", "polygon", "tron", "solana"] as const;
export type Chain = (typeof CHAINS)[number];

/** The key families deposit addresses derive in (lib/chains/chain-registry.ts maps each chain to one). */
export const CHAIN_FAMILIES = ["evm", "tron", "solana"] as const;
export type ChainFamily = (typeof CHAIN_FAMILIES)[number];
