import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { toUsdtUnits } from "@/lib/chains/chain-adapter";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import type { Chain } from "@/lib/chains/chains";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import { formatAmount } from "@/lib/kernel/amount";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { readCustodyBooks } from "./custody-books";
import { modeChainConfigs } from "./show-treasury";

const PARALLEL_READS = 8;

export interface FrozenAddress {
  role: "treasury" | "sweeper" | "deposit";
  address: string;
  /** USDT on chain there, which cannot move while it is frozen. */
  usdt: string;
}

/**
 * The service's own addresses on a chain that USDT's issuer has frozen (docs/CUSTODY.md "Frozen addresses"): the
 * treasury, the sweeper and every deposit address the books say holds USDT. Nothing on a chain whose USDT has no
 * freeze the service reads. Network reads; throws when the chain cannot answer.
 */
export async function frozenCustody(db: Db, config: ChainConfig, holders?: string[]): Promise<FrozenAddress[]> {
  if (!CHAIN_SPECS[config.chain].issuerFreeze) return [];
  const { mode, chain } = config;
  const [treasury, sweeper] = await Promise.all([
    roleAddress(db, mode, chain, "treasury"),
    roleAddress(db, mode, chain, "sweeper"),
  ]);
  const deposits = holders ?? (await readCustodyBooks(db, mode, chain, [treasury.address, sweeper.address])).holders;
  const candidates = [
    { role: "treasury" as const, address: treasury.address },
    { role: "sweeper" as const, address: sweeper.address },
    ...deposits.map((address) => ({ role: "deposit" as const, address })),
  ];
  const adapter = createChainAdapter(config);
  const frozen: FrozenAddress[] = [];
  for (let i = 0; i < candidates.length; i += PARALLEL_READS) {
    const batch = candidates.slice(i, i + PARALLEL_READS);
    const found = await Promise.all(batch.map((c) => adapter.frozen(c.address)));
    for (const [j, c] of batch.entries()) {
      if (!found[j]) continue;
      const { token } = await adapter.balances(c.address);
      frozen.push({ ...c, usdt: formatAmount(toUsdtUnits(token, config.decimals)) });
    }
  }
  return frozen;
}

/** `cli custody frozen`: every chain of a mode (or one); a chain that cannot be read says so. */
export async function listFrozenCustody(db: Db, mode: Mode, chain?: Chain) {
  const configs = (await modeChainConfigs(db, mode)).filter((c) => !chain || c.chain === chain);
  const chains = await Promise.all(
    configs.map(async (config) => ({
      chain: config.chain,
      checked: CHAIN_SPECS[config.chain].issuerFreeze !== null,
      ...(await frozenCustody(db, config).then(
        (frozen) => ({ frozen }),
        (err: unknown) => ({ error: `could not read: ${String(err).split("\n")[0]}` }),
      )),
    })),
  );
  return { object: "frozen_custody", mode, chains };
}
