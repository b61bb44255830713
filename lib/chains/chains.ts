import { type AppConfig, config } from "@/lib/config/env";
import type { Mode } from "@/lib/modes/mode";
import { CHAINS, type Chain } from "./chain-list";

export { CHAINS, type Chain } from "./chain-list";

/** The key family each chain derives deposit addresses in. */
export type ChainFamily = "evm" | "tron" | "solana";
export const CHAIN_FAMILY: Record<Chain, ChainFamily> = {
  eth: "evm",
  bnb: "evm",
  polygon: "evm",
  tron: "tron",
  solana: "solana",
};

export function isChain(value: unknown): value is Chain {
  return typeof value === "string" && (CHAINS as readonly string[]).includes(value);
}

/**
 * Sandbox: all five (local chains). Live: those with an RPC configured, and only when the operator has
 * configured the live wallet seed (without it no deposit address can be derived).
 */
export function enabledChains(mode: Mode, cfg: AppConfig = config()): Chain[] {
  if (mode === "sandbox") return [...CHAINS];
  if (!cfg.liveSeedMnemonic && !cfg.liveSeedFile) return [];
  return CHAINS.filter((chain) => Boolean(cfg.chains[chain].rpcUrl));
}
