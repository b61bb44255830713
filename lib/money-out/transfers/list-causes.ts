import type { ListFilters } from "@/lib/kernel/schemas/list-filters";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { keysetPage } from "@/lib/platform/db/keyset-page";
import { listFilterSql } from "@/lib/platform/db/list-filter-sql";
import type { CauseRow, TransferKind } from "./transfer-kind";

/** A page of a list: the API's filters (docs/API.md#filters) and its cursor. */
export type CausePage = ListFilters & { limit?: number; starting_after?: string };

/**
 * A kind's causes of one merchant and mode, newest first, narrowed by the API's filters and by the kind's own
 * (`also`: column = value, e.g. a refund's payment).
 */
export async function listCauses<Row extends CauseRow>(
  db: Db,
  kind: TransferKind<Row, string>,
  owner: { merchantId: string; mode: Mode },
  page: CausePage,
  also: Record<string, unknown> = {},
): Promise<{ rows: Row[]; hasMore: boolean }> {
  const values: unknown[] = [owner.merchantId, owner.mode];
  const where = ["merchant_id = $1", "mode = $2"];
  for (const [column, value] of Object.entries(also)) where.push(`${column} = $${values.push(value)}`);
  where.push(...listFilterSql(page, values));
  const result = await keysetPage(db, {
    table: kind.table,
    columns: kind.rows.columns,
    filter: { sql: where.join(" and "), values },
    limit: page.limit,
    startingAfter: page.starting_after,
    noun: kind.purpose,
  });
  return { rows: result.rows.map(kind.rows.map), hasMore: result.hasMore };
}
