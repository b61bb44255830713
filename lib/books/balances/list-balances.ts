import type { BalanceObject } from "./balance-object";
import { enabledChains } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { formatAmount } from "@/lib/kernel/amount";

/**
 * One entry per chain enabled in the key's mode, zeros included. `available` is withdrawable now;
 * `reserved` is funds detected for in-flight payments that are not yet confirmed;
 * `in_flight` is debited for payouts and refunds not yet finished (confirmed, failed or canceled).
 * The API and the dashboard both list these.
 */
export async function listBalances(db: Db, owner: { merchantId: string; mode: Mode }): Promise<BalanceObject[]> {
  const rows = await query<{ chain: string; available_units: string; reserved_units: string; in_flight_units: string }>(
    db,
    "select chain, available_units::text, reserved_units::text, (in_flight_units + refunds_in_flight_units)::text " +
      "as in_flight_units from balances where merchant_id = $1 and mode = $2",
    [owner.merchantId, owner.mode],
  );
  const byChain = new Map(rows.map((r) => [r.chain, r]));
  return enabledChains(owner.mode).map((chain) => {
    const row = byChain.get(chain);
    return {
      chain,
      symbol: "USDT" as const,
      available: formatAmount(BigInt(row?.available_units ?? 0)),
      reserved: formatAmount(BigInt(row?.reserved_units ?? 0)),
      in_flight: formatAmount(BigInt(row?.in_flight_units ?? 0)),
    };
  });
}
