import { notFound } from "@/lib/kernel/domain-error";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { PAYMENT_LINK_COLUMNS, toPaymentLinkRow, type PaymentLinkRow } from "./payment-link-row";

/**
 * One link of this merchant in this mode. Another merchant's link, or a link of the other mode, is
 * indistinguishable from one that does not exist: 404 either way.
 */
export async function getPaymentLink(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  id: string,
): Promise<PaymentLinkRow> {
  const [row] = await query(
    db,
    `select ${PAYMENT_LINK_COLUMNS} from payment_links where id = $1 and merchant_id = $2 and mode = $3`,
    [id, owner.merchantId, owner.mode],
  );
  if (!row) throw notFound("payment_link", id);
  return toPaymentLinkRow(row);
}
