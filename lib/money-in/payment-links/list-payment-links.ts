import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { PAYMENT_LINK_COLUMNS, toPaymentLinkRow, type PaymentLinkRow } from "./payment-link-row";

/**
 * Every link of the merchant in this mode, newest first (id breaks ties); unpaginated (docs/API.md#list-payment-links).
 */
export async function listPaymentLinks(db: Db, owner: { merchantId: string; mode: Mode }): Promise<PaymentLinkRow[]> {
  const rows = await query(
    db,
    `select ${PAYMENT_LINK_COLUMNS} from payment_links ` +
      `where merchant_id = $1 and mode = $2 order by created_at desc, id desc`,
    [owner.merchantId, owner.mode],
  );
  return rows.map(toPaymentLinkRow);
}
