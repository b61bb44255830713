import type { Db } from "@/lib/db/client";
import { keysetPage } from "@/lib/db/keyset-page";
import type { Mode } from "@/lib/modes/mode";
import { PAYMENT_COLUMNS, toPaymentRow, type PaymentRow } from "./payment-row";

export async function listPayments(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  page: { limit?: number; starting_after?: string },
): Promise<{ rows: PaymentRow[]; hasMore: boolean }> {
  const result = await keysetPage(db, {
    table: "payments",
    columns: PAYMENT_COLUMNS,
    filter: { sql: "merchant_id = $1 and mode = $2", values: [owner.merchantId, owner.mode] },
    limit: page.limit,
    startingAfter: page.starting_after,
    noun: "payment",
  });
  return { rows: result.rows.map(toPaymentRow), hasMore: result.hasMore };
}
