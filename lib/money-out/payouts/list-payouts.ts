import type { Db } from "@/lib/platform/db/client";
import { keysetPage } from "@/lib/platform/db/keyset-page";
import type { Mode } from "@/lib/kernel/mode";
import { PAYOUT_COLUMNS, toPayoutRow, type PayoutRow } from "./payout-row";
import type { PayoutStatus } from "./schemas";

export async function listPayouts(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  page: { limit?: number; starting_after?: string; status?: PayoutStatus },
): Promise<{ rows: PayoutRow[]; hasMore: boolean }> {
  const filter = page.status
    ? { sql: "merchant_id = $1 and mode = $2 and status = $3", values: [owner.merchantId, owner.mode, page.status] }
    : { sql: "merchant_id = $1 and mode = $2", values: [owner.merchantId, owner.mode] };
  const result = await keysetPage(db, {
    table: "payouts",
    columns: PAYOUT_COLUMNS,
    filter,
    limit: page.limit,
    startingAfter: page.starting_after,
    noun: "payout",
  });
  return { rows: result.rows.map(toPayoutRow), hasMore: result.hasMore };
}
