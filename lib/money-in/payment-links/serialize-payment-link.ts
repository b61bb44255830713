import type { PaymentLinkObject } from "./payment-link-object";
import type { PaymentLinkRow } from "./payment-link-row";
import { formatAmount } from "@/lib/kernel/amount";

export function paymentLinkUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/pay/${token}`;
}

/**
 * The payment link object (docs/API.md#the-payment-link-object); `active` is computed so a link is inactive from the
 * instant it expires.
 */
export function serializePaymentLink(row: PaymentLinkRow, baseUrl: string, now = new Date()): PaymentLinkObject {
  return {
    id: row.id,
    object: "payment_link" as const,
    url: paymentLinkUrl(baseUrl, row.token),
    amount: formatAmount(row.amountUnits),
    currency: "USDT" as const,
    ...(row.description !== null ? { description: row.description } : {}),
    active: row.deactivatedAt === null && now.getTime() < row.expiresAt.getTime(),
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}
