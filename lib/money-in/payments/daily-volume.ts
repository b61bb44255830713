import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { formatAmount } from "@/lib/kernel/amount";
import type { Mode } from "@/lib/kernel/mode";

export const VOLUME_DAYS = 30;

export interface DayVolume {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** Sum of the day's confirmed payments, exact (6-decimal USDT string). */
  amount: string;
  payments: number;
}

/**
 * Confirmed volume per UTC day over the last 30 days (today included), every day present (0 when none):
 * payments' amounts summed in SQL as NUMERIC, so no float ever touches them.
 */
export async function loadDailyVolume(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  now = new Date(),
): Promise<DayVolume[]> {
  const rows = await query<{ day: string; units: string; n: number }>(
    db,
    `with days as (
       select generate_series(($3::timestamptz at time zone 'UTC')::date - ($4::int - 1),
         ($3::timestamptz at time zone 'UTC')::date, interval '1 day')::date as day
     )
     select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(sum(p.amount_units::numeric), 0)::text as units,
       count(p.id)::int as n
       from days d
       left join payments p
         on p.merchant_id = $1 and p.mode = $2 and p.status = 'confirmed'
        and p.confirmed_at >= d.day::timestamp at time zone 'UTC'
        and p.confirmed_at < (d.day + 1)::timestamp at time zone 'UTC'
      group by d.day order by d.day`,
    [owner.merchantId, owner.mode, now.toISOString(), VOLUME_DAYS],
  );
  return rows.map((r) => ({ day: r.day, amount: formatAmount(BigInt(r.units)), payments: r.n }));
}

/** The days' exact total (bigint arithmetic on the 6-decimal strings). */
export function totalVolume(days: DayVolume[]): string {
  return formatAmount(days.reduce((sum, d) => sum + BigInt(d.amount.replace(".", "")), 0n));
}
