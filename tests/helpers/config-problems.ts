import type { ChainConfig } from "@/lib/chains/chain-config";
import { CHAIN_FAMILY, type Chain } from "@/lib/chains/chains";
import type { Mode } from "@/lib/kernel/mode";
import { ConfigError, loadConfig } from "@/lib/platform/config/env";

/** The problems loadConfig reports for `env`, or [] when it parses. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

/** Just enough of a chain's config for the per-chain strategy choices. */
export const chainOn = (mode: Mode, chain: Chain) => ({ mode, chain, family: CHAIN_FAMILY[chain] }) as ChainConfig;
