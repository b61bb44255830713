import { formatUnits } from "viem";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { toUsdtUnits } from "@/lib/chains/chain-adapter";
import { liveChainConfig, sandboxChainConfigs, type ChainConfig } from "@/lib/chains/chain-config";
import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import { CHAINS } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { formatAmount } from "@/lib/kernel/amount";
import type { Mode } from "@/lib/kernel/mode";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import { WALLET_ROLES } from "@/lib/chains/wallets/wallet-roles";

export async function modeChainConfigs(db: Db, mode: Mode): Promise<ChainConfig[]> {
  if (mode === "sandbox") return sandboxChainConfigs(db, { fresh: true });
  return CHAINS.map((chain) => liveChainConfig(chain)).filter((c): c is ChainConfig => c !== null);
}

/** `cli treasury show`: each chain's treasury and sweeper with their USDT and native balances, read from the chain. */
export async function showTreasury(db: Db, mode: Mode) {
  const configs = await modeChainConfigs(db, mode);
  const chains = await Promise.all(
    configs.map(async (config) => {
      const adapter = createChainAdapter(config);
      const roles = await Promise.all(
        WALLET_ROLES.map(async (role) => {
          const { address, path } = await roleAddress(db, config.mode, config.chain, role);
          const balances = await adapter.balances(address).catch((err: unknown) => ({ error: String(err) }));
          return {
            role,
            address,
            path,
            ...("error" in balances
              ? { error: `could not read balances: ${balances.error.split("\n")[0]}` }
              : {
                  usdt: formatAmount(toUsdtUnits(balances.token, config.decimals)),
                  native: formatUnits(balances.native, CHAIN_SPECS[config.chain].native.decimals),
                  native_symbol: CHAIN_SPECS[config.chain].native.symbol,
                }),
          };
        }),
      );
      return { chain: config.chain, roles };
    }),
  );
  return { object: "treasury", mode, chains };
}
