import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import type { ChainReconciliation } from "./reconcile-custody";

/** A signed 6-decimal amount as the report writes it ("-1.250000") in base units. */
const units = (amount: string) =>
  (amount.startsWith("-") ? -1n : 1n) * BigInt(amount.replace(/^-/, "").replace(".", ""));
const missing = (gap: bigint) => (gap < 0n ? -gap : 0n);

/**
 * Keeps what one chain's reconciliation found (reconcile_results), replacing the previous run's: what is missing
 * against what merchants are owed and against the custody books (after what is settling), and how many of the
 * treasury and sweeper are short of gas. The metrics read it (docs/OPERATIONS.md#metrics).
 */
export async function recordReconcileResult(db: Db, mode: Mode, report: ChainReconciliation): Promise<void> {
  const settling = units(report.usdt.settling);
  await execute(
    db,
    `insert into reconcile_results (mode, chain, checked_at, shortfall_units, unmatched_units, gas_short, alerts)
     values ($1, $2, now(), $3, $4, $5, $6::jsonb)
     on conflict (mode, chain) do update set checked_at = excluded.checked_at,
       shortfall_units = excluded.shortfall_units,
       unmatched_units = excluded.unmatched_units, gas_short = excluded.gas_short, alerts = excluded.alerts`,
    [
      mode,
      report.chain,
      missing(units(report.usdt.difference) + settling).toString(),
      missing(units(report.usdt.unmatched) + settling).toString(),
      report.alerts.filter((a) => a.startsWith("gas:")).length,
      JSON.stringify(report.alerts),
    ],
  );
}

/** The last reconciliation of every (mode, chain) that has one. */
export function readReconcileResults(db: Db) {
  return query<{
    mode: Mode;
    chain: string;
    checked_at: Date;
    shortfall_units: string;
    unmatched_units: string;
    gas_short: number;
    alerts: string[];
  }>(
    db,
    "select mode, chain, checked_at, shortfall_units::text, unmatched_units::text, gas_short, alerts " +
      "from reconcile_results",
  );
}
