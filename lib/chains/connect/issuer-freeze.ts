import type { ChainConfig } from "@/lib/chains/chain-config";
import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import { log } from "@/lib/platform/log";
import { createChainAdapter } from "./chain-families";

const warned = new Set<string>();

/**
 * Whether USDT's issuer has frozen `address` on this chain (Tether's blacklist, a frozen Solana token account);
 * false where the chain's USDT has no freeze the service reads (chain-registry.ts `issuerFreeze`). A network
 * read: never inside a database transaction. Live, it throws when the chain cannot answer, so callers wait (fail
 * closed). A sandbox token deployed by an older version answers no `isBlackListed`: there the freeze is taken as
 * absent, with one warning per process, so an upgraded developer sandbox (no real money) does not stall.
 */
export async function frozenByIssuer(config: ChainConfig, address: string): Promise<boolean> {
  if (!CHAIN_SPECS[config.chain].issuerFreeze) return false;
  try {
    return await createChainAdapter(config).frozen(address);
  } catch (err) {
    if (config.mode !== "sandbox") throw err;
    if (!warned.has(config.chain)) {
      warned.add(config.chain);
      log.warn("the sandbox token does not answer its issuer freeze: freezes are not read on this chain", {
        chain: config.chain,
        why: 'its token was deployed by an older version (docs/CUSTODY.md, "Frozen addresses")',
        reason: (err as { shortMessage?: string }).shortMessage ?? (err as Error).message,
      });
    }
    return false;
  }
}
