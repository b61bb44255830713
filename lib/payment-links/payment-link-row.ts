import type { Mode } from "@/lib/keys/api-key-format";

/** A payment_links row as the hot-path SQL returns it (bigint columns arrive as strings from pg). */
export interface PaymentLinkRow {
  id: string;
  merchantId: string;
  mode: Mode;
  token: string;
  amountUnits: bigint;
  description: string | null;
  createdAt: Date;
  expiresAt: Date;
  deactivatedAt: Date | null;
}

export const PAYMENT_LINK_COLUMNS =
  "id, merchant_id, mode, token, amount_units, description, created_at, expires_at, deactivated_at";

export function toPaymentLinkRow(r: Record<string, unknown>): PaymentLinkRow {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    mode: r.mode as Mode,
    token: r.token as string,
    amountUnits: BigInt(r.amount_units as string),
    description: (r.description as string | null) ?? null,
    createdAt: r.created_at as Date,
    expiresAt: r.expires_at as Date,
    deactivatedAt: (r.deactivated_at as Date | null) ?? null,
  };
}
