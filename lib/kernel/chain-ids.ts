/**
 * The API's chain values. In the kernel because every layer names chains: the configuration schema builds
 * its per-chain variables from this list, and lib/chains/chains.ts (which reads the configuration) re-exports it.
 */
export const CHAINS = ["eth", "bnb", "polygon", "tron", "solana"] as const;
export type Chain = (typeof CHAINS)[number];

/** The key families deposit addresses derive in (lib/chains/chain-registry.ts maps each chain to one). */
export const CHAIN_FAMILIES = ["evm", "tron", "solana"] as const;
export type ChainFamily = (typeof CHAIN_FAMILIES)[number];

/**
 * What an address of the HD pools is for, each a range of derivation indexes of its own (docs/CUSTODY.md):
 * `payment` addresses count up from 0, single-use; `deposit` addresses (a customer's permanent address) from
 * DEPOSIT_INDEX_START. The payment range stops below it, so no index is ever handed out for both.
 */
export const POOL_PURPOSES = ["payment", "deposit"] as const;
export type PoolPurpose = (typeof POOL_PURPOSES)[number];
export const DEPOSIT_INDEX_START = 2 ** 30;
export const POOL_INDEX_START: Record<PoolPurpose, number> = { payment: 0, deposit: DEPOSIT_INDEX_START };
export const POOL_INDEX_END: Record<PoolPurpose, number> = { payment: DEPOSIT_INDEX_START, deposit: 2 ** 31 };
