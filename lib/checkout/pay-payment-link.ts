import { ApiError } from "@/lib/api/errors";
import { isChain } from "@/lib/chains/chains";
import { inTransaction, type Db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { paymentLinkRow, type PaymentLinkRow } from "@/lib/payment-links/payment-link-row";
import { createPayment } from "@/lib/payments/create-payment";

export interface LinkPage {
  link: PaymentLinkRow;
  merchantName: string;
  active: boolean;
}

const LINK_WITH_MERCHANT = `select ${paymentLinkRow.prefixed("l")}, m.name as merchant_name
  from payment_links l join merchants m on m.id = l.merchant_id where l.token = $1`;

/** The link behind a public /pay/<token>, with its merchant's display name; null for an unknown token. */
export async function loadPaymentLinkPage(db: Db, token: string, now = new Date()): Promise<LinkPage | null> {
  if (!/^[0-9A-Za-z]{16,64}$/.test(token)) return null;
  const [row] = await query(db, LINK_WITH_MERCHANT, [token]);
  if (!row) return null;
  const link = paymentLinkRow.map(row);
  return {
    link,
    merchantName: row.merchant_name as string,
    active: link.deactivatedAt === null && now < link.expiresAt,
  };
}

/**
 * The payer picked a network on an active link's page: a normal payment for the link's amount and
 * description, on that network, linked to the link (same events and webhooks as any payment).
 */
export async function payPaymentLink(db: Db, token: string, chain: string): Promise<string> {
  return inTransaction(db, async (tx) => {
    const page = await loadPaymentLinkPage(tx, token);
    if (!page) throw new ApiError("not_found", "This payment link does not exist.", { param: "token" });
    if (!page.active) throw new ApiError("invalid_request_error", "This payment link has expired.", { param: "token" });
    if (!isChain(chain))
      throw new ApiError("invalid_request_error", "Choose one of the listed networks.", { param: "chain" });
    const { link } = page;
    const payment = await createPayment(
      tx,
      { merchantId: link.merchantId, mode: link.mode },
      {
        amount: link.amountUnits,
        chain,
        ...(link.description ? { description: link.description } : {}),
        paymentLinkId: link.id,
      },
    );
    return payment.id;
  });
}
