import { frozenByIssuer } from "@/lib/chains/connect/issuer-freeze";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import { formatAmount } from "@/lib/kernel/amount";
import type { Db } from "@/lib/platform/db/client";
import { log } from "@/lib/platform/log";
import { countSignal } from "@/lib/platform/metrics/signals";

/**
 * The sweep planner's look at USDT's issuer freeze (docs/CUSTODY.md "Frozen addresses"), before it plans anything:
 * a frozen deposit address cannot send (its sweep would fail on chain and still pay its fee), and a frozen
 * treasury's USDT cannot move, so nothing more is swept into it. Each is an error log and a counted signal;
 * `reconcile` alerts on it and `cli custody frozen` lists it. A read that fails throws: this run plans nothing.
 */
export async function issuerFreezeCheck(db: Db, config: ChainConfig) {
  const scope = { mode: config.mode, chain: config.chain };
  return {
    async treasury(): Promise<boolean> {
      const { address } = await roleAddress(db, config.mode, config.chain, "treasury");
      if (!(await frozenByIssuer(config, address))) return false;
      log.error("USDT's issuer has frozen the treasury: nothing is swept into it", { ...scope, address });
      countSignal("frozen_address_found", { role: "treasury" });
      return true;
    },
    async deposit(address: string, unsweptUnits: bigint): Promise<boolean> {
      if (!(await frozenByIssuer(config, address))) return false;
      log.error("USDT's issuer has frozen a deposit address: it is not swept", {
        ...scope,
        address,
        usdt: formatAmount(unsweptUnits),
      });
      countSignal("frozen_address_found", { role: "deposit" });
      return true;
    },
  };
}
