import { DomainError } from "@/lib/kernel/domain-error";
import { isChain } from "@/lib/chains/chains";
import { requireEnabledChain } from "@/lib/chains/require-enabled-chain";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { paymentLinkRow, type PaymentLinkRow } from "@/lib/money-in/payment-links/payment-link-row";
import { createPayment } from "@/lib/money-in/payments/create-payment";
import { requireRoomForLinkPayment, reusableLinkPayment } from "./link-payments";

export interface LinkPage {
  link: PaymentLinkRow;
  merchantName: string;
  active: boolean;
}

const LINK_WITH_MERCHANT = `select ${paymentLinkRow.prefixed("l")}, m.name as merchant_name
  from payment_links l join merchants m on m.id = l.merchant_id where l.token = $1`;

/**
 * The link behind a public /pay/<token>, with its merchant's display name; null for an unknown token.
 * `lock`: the link's row stays locked until the caller's transaction ends.
 */
export async function loadPaymentLinkPage(
  db: Db,
  token: string,
  opts: { now?: Date; lock?: boolean } = {},
): Promise<LinkPage | null> {
  if (!/^[0-9A-Za-z]{16,64}$/.test(token)) return null;
  const [row] = await query(db, opts.lock ? `${LINK_WITH_MERCHANT} for update of l` : LINK_WITH_MERCHANT, [token]);
  if (!row) return null;
  const link = paymentLinkRow.map(row);
  return {
    link,
    merchantName: row.merchant_name as string,
    active: link.deactivatedAt === null && (opts.now ?? new Date()) < link.expiresAt,
  };
}

/**
 * The payer picked a network on an active link's page: the link's open payment on that network if one
 * still has time to be paid, else a normal payment for the link's amount and description on that network,
 * linked to the link (same events and webhooks as any payment), within MAX_PAYMENTS_PER_LINK. The link's
 * row is locked for the decision, so payers choosing at once get one payment, and the cap is exact.
 */
export async function payPaymentLink(db: Db, token: string, chain: string): Promise<string> {
  return inTransaction(db, async (tx) => {
    const page = await loadPaymentLinkPage(tx, token, { lock: true });
    if (!page) throw new DomainError("not_found", "This payment link does not exist.", { param: "token" });
    if (!page.active)
      throw new DomainError("invalid_request_error", "This payment link has expired.", { param: "token" });
    if (!isChain(chain))
      throw new DomainError("invalid_request_error", "Choose one of the listed networks.", { param: "chain" });
    const { link } = page;
    requireEnabledChain(link.mode, chain);
    const open = await reusableLinkPayment(tx, link.id, chain);
    if (open) return open;
    await requireRoomForLinkPayment(tx, link.id);
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
