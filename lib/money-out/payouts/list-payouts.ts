import type { Db } from "@/lib/platform/db/client";
import { keysetPage } from "@/lib/platform/db/keyset-page";
import type { Mode } from "@/lib/kernel/mode";
import { listFilterSql } from "@/lib/platform/db/list-filter-sql";
import { PAYOUT_COLUMNS, toPayoutRow, type PayoutRow } from "./payout-row";
import type { ListPayoutsQuery } from "./schemas";

/** Newest first, narrowed by the API's filters (docs/API.md#filters). */
export async function listPayouts(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  page: Partial<ListPayoutsQuery>,
): Promise<{ rows: PayoutRow[]; hasMore: boolean }> {
  const values: unknown[] = [owner.merchantId, owner.mode];
  const where = ["merchant_id = $1", "mode = $2"];
  where.push(...listFilterSql(page, values));
  const result = await keysetPage(db, {
    table: "payouts",
    columns: PAYOUT_COLUMNS,
    filter: { sql: where.join(" and "), values },
    limit: page.limit,
    startingAfter: page.starting_after,
    noun: "payout",
  });
  return { rows: result.rows.map(toPayoutRow), hasMore: result.hasMore };
}
