import type { Mode } from "@/lib/keys/api-key-format";

/** The spec's chain values and the key family each derives deposit addresses in. */
export const CHAINS = ["eth", "bnb", "polygon", "tron", "solana"] as const;
export type Chain = (typeof CHAINS)[number];

export type ChainFamily = "evm" | "tron" | "solana";
export const CHAIN_FAMILY: Record<Chain, ChainFamily> = {
  eth: "evm",
  bnb: "evm",
  polygon: "evm",
  tron: "tron",
  solana: "solana",
};

/** Environment variable naming each chain's live RPC endpoint; a live chain is enabled when it is set. */
export const LIVE_RPC_ENV: Record<Chain, string> = {
  eth: "ETH_RPC_URL",
  bnb: "BNB_RPC_URL",
  polygon: "POLYGON_RPC_URL",
  tron: "TRON_RPC_URL",
  solana: "SOLANA_RPC_URL",
};

export function isChain(value: unknown): value is Chain {
  return typeof value === "string" && (CHAINS as readonly string[]).includes(value);
}

/**
 * Sandbox: all five (local chains). Live: those with an RPC configured, and only when the operator has
 * configured the live wallet seed (without it no deposit address can be derived).
 */
export function enabledChains(mode: Mode, env: NodeJS.ProcessEnv = process.env): Chain[] {
  if (mode === "sandbox") return [...CHAINS];
  if (!env.LIVE_SEED_MNEMONIC && !env.LIVE_SEED_FILE) return [];
  return CHAINS.filter((chain) => Boolean(env[LIVE_RPC_ENV[chain]]));
}
