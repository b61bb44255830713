import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { keysetPage } from "@/lib/platform/db/keyset-page";
import { listFilterSql } from "@/lib/platform/db/list-filter-sql";
import { REFUND_COLUMNS, type RefundRow, toRefundRow } from "./refund-row";
import type { ListRefundsQuery } from "./schemas";

type Owner = { merchantId: string; mode: Mode };

/** Newest first, optionally of one payment, narrowed by the API's filters (docs/API.md#filters). */
export async function listRefunds(
  db: Db,
  owner: Owner,
  page: ListRefundsQuery,
): Promise<{ rows: RefundRow[]; hasMore: boolean }> {
  const conditions = ["merchant_id = $1", "mode = $2"];
  const values: unknown[] = [owner.merchantId, owner.mode];
  if (page.payment) conditions.push(`payment_id = $${values.push(page.payment)}`);
  conditions.push(...listFilterSql(page, values));
  const result = await keysetPage(db, {
    table: "refunds",
    columns: REFUND_COLUMNS,
    filter: { sql: conditions.join(" and "), values },
    limit: page.limit,
    startingAfter: page.starting_after,
    noun: "refund",
  });
  return { rows: result.rows.map(toRefundRow), hasMore: result.hasMore };
}
