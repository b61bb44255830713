import type { Lifecycle } from "@/lib/kernel/define-lifecycle";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/**
 * Payouts or refunds by state, for the metrics: those not yet final (by the kind's lifecycle table) per (mode,
 * chain, status) with the age of the oldest, and those that ended in the last 24 hours. With
 * `liquidityAlertMinutes`, how many have waited for treasury funds (pending, nothing queued) longer than that.
 * Over the partial index of open rows, and updated_at.
 */
export async function countCauses(
  db: Db,
  table: "payouts" | "refunds",
  lifecycle: Lifecycle<string, string, string | null>,
  liquidityAlertMinutes: number | null = null,
) {
  // Literal lists (the lifecycle's own constants), as the partial indexes are written: the planner matches them.
  const list = (statuses: readonly string[]) => statuses.map((s) => `'${s}'`).join(", ");
  const finals = lifecycle.terminal;
  const open = lifecycle.statuses.filter((s) => !finals.includes(s));
  const [opened, finished] = await Promise.all([
    query<{ mode: Mode; chain: string; status: string; count: number; oldest_seconds: number; overdue: number }>(
      db,
      `select mode, chain, status, count(*)::int as count,
              extract(epoch from now() - min(created_at))::float8 as oldest_seconds,
              count(*) filter (where $1::int is not null and status = 'pending' and outbound_id is null
                                 and created_at < now() - make_interval(mins => $1::int))::int as overdue
         from ${table} where status in (${list(open)})
        group by mode, chain, status`,
      [liquidityAlertMinutes],
    ),
    query<{ mode: Mode; chain: string; status: string; count: number }>(
      db,
      `select mode, chain, status, count(*)::int as count from ${table}
        where updated_at > now() - interval '24 hours' and status in (${list(finals)})
        group by mode, chain, status`,
    ),
  ]);
  return { open: opened, finished };
}
