import { invalidRequest } from "@/lib/api/errors";
import type { Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { Mode } from "@/lib/keys/api-key-format";
import { PAYMENT_COLUMNS, toPaymentRow, type PaymentRow } from "./payment-row";

/**
 * Newest first with id as tiebreak, keyset-paginated: `starting_after` is the last id of the previous
 * page, so rows inserted meanwhile never shift a page (nothing lost or repeated). One extra row is read
 * to make `has_more` exact.
 */
export async function listPayments(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  page: { limit?: number; starting_after?: string },
): Promise<{ rows: PaymentRow[]; hasMore: boolean }> {
  const limit = page.limit ?? 20;
  let rows: Record<string, unknown>[];
  if (page.starting_after) {
    const [cursor] = await query<{ created_at: Date }>(db, "select created_at from payments where id = $1 and merchant_id = $2 and mode = $3", [
      page.starting_after,
      owner.merchantId,
      owner.mode,
    ]);
    if (!cursor) throw invalidRequest(`starting_after '${page.starting_after}' is not a payment of yours in ${owner.mode} mode.`, "starting_after");
    rows = await query(
      db,
      `select ${PAYMENT_COLUMNS} from payments where merchant_id = $1 and mode = $2 and (created_at, id) < ($3, $4)
       order by created_at desc, id desc limit $5`,
      [owner.merchantId, owner.mode, cursor.created_at, page.starting_after, limit + 1],
    );
  } else {
    rows = await query(db, `select ${PAYMENT_COLUMNS} from payments where merchant_id = $1 and mode = $2 order by created_at desc, id desc limit $3`, [
      owner.merchantId,
      owner.mode,
      limit + 1,
    ]);
  }
  return { rows: rows.slice(0, limit).map(toPaymentRow), hasMore: rows.length > limit };
}
