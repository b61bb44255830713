import { notFound } from "@/lib/kernel/domain-error";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { PAYOUT_COLUMNS, toPayoutRow, type PayoutRow } from "./payout-row";

export async function getPayout(db: Db, owner: { merchantId: string; mode: Mode }, id: string): Promise<PayoutRow> {
  const [row] = await query(
    db,
    `select ${PAYOUT_COLUMNS} from payouts where id = $1 and merchant_id = $2 and mode = $3`,
    [id, owner.merchantId, owner.mode],
  );
  if (!row) throw notFound("payout", id);
  return toPayoutRow(row);
}
