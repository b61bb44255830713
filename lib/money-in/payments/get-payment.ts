import { notFound } from "@/lib/kernel/domain-error";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { PAYMENT_COLUMNS, toPaymentRow, type PaymentRow } from "./payment-row";

/** One payment of this merchant and mode; anything else (other tenant, other mode, unknown) is 404. */
export async function getPayment(db: Db, owner: { merchantId: string; mode: Mode }, id: string): Promise<PaymentRow> {
  const [row] = await query(
    db,
    `select ${PAYMENT_COLUMNS} from payments where id = $1 and merchant_id = $2 and mode = $3`,
    [id, owner.merchantId, owner.mode],
  );
  if (!row) throw notFound("payment", id);
  return toPaymentRow(row);
}
