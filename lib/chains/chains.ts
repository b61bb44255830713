import { type AppConfig, config } from "@/lib/platform/config/env";
import type { Mode } from "@/lib/kernel/mode";
import { CHAINS, type Chain } from "@/lib/kernel/chain-ids";
import { CHAIN_SPECS, type ChainFamily } from "./chain-registry";

export { CHAINS, type Chain } from "@/lib/kernel/chain-ids";

export type { ChainFamily } from "./chain-registry";
/** The key family each chain derives deposit addresses in (lib/chains/chain-registry.ts). */
export const CHAIN_FAMILY = Object.fromEntries(CHAINS.map((c) => [c, CHAIN_SPECS[c].family])) as Record<
  Chain,
  ChainFamily
>;

export function isChain(value: unknown): value is Chain {
  return typeof value === "string" && (CHAINS as readonly string[]).includes(value);
}

/**
 * Sandbox: all five (local chains). Live: those with an RPC configured whose deposit addresses the
 * installation can derive (docs/SECURITY.md, "Key custody"; the worker derives them into the address pools):
 * EVM chains with LIVE_EVM_XPUB or the live seed, Tron with LIVE_TRON_XPUB or the seed, Solana with the seed
 * or either xpub (an xpub given to a web process says a seed holder runs beside it).
 */
export function enabledChains(mode: Mode, cfg: AppConfig = config()): Chain[] {
  if (mode === "sandbox") return [...CHAINS];
  const seed = Boolean(cfg.liveSeedMnemonic || cfg.liveSeedFile);
  const canAllocate: Record<ChainFamily, boolean> = {
    evm: seed || Boolean(cfg.liveXpubs.evm),
    tron: seed || Boolean(cfg.liveXpubs.tron),
    solana: seed || Boolean(cfg.liveXpubs.evm || cfg.liveXpubs.tron),
  };
  return CHAINS.filter((chain) => Boolean(cfg.chains[chain].rpcUrl) && canAllocate[CHAIN_FAMILY[chain]]);
}
