import type { Chain } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { formatAmount } from "@/lib/kernel/amount";
import type { Mode } from "@/lib/kernel/mode";
import { modeChainConfigs } from "@/lib/books/custody/show-treasury";
import { depositHoldings } from "./deposit-holdings";
import { sweepThreshold } from "./sweep-threshold";

/**
 * `cli sweeps list`: the deposit addresses holding credited USDT not yet in the treasury, per chain: `due`
 * (at or above the threshold: the next planning run sweeps it), `sweeping`, or `dust` (below it; it stays
 * until payouts need it).
 */
export async function listHoldings(db: Db, mode: Mode, chain?: Chain) {
  const configs = (await modeChainConfigs(db, mode)).filter((c) => !chain || c.chain === chain);
  const data = [];
  for (const config of configs) {
    const threshold = sweepThreshold(config);
    for (const h of await depositHoldings(db, config))
      data.push({
        chain: config.chain,
        address: h.address,
        unswept: formatAmount(h.unsweptUnits),
        threshold: formatAmount(threshold),
        state: h.sweeping ? "sweeping" : h.unsweptUnits >= threshold ? "due" : "dust",
      });
  }
  return { object: "list", mode, data };
}
