import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { newId, randomBase62 } from "@/lib/kernel/random";
import type { Mode } from "@/lib/kernel/mode";
import { PAYMENT_LINK_COLUMNS, toPaymentLinkRow, type PaymentLinkRow } from "./payment-link-row";
import type { CreatePaymentLinkInput } from "./schemas";

/** A link is active for a fixed 30 minutes, not extendable (docs/API.md#payment-links). */
export const LINK_LIFETIME_MS = 30 * 60 * 1000;

export async function createPaymentLink(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  input: CreatePaymentLinkInput,
): Promise<PaymentLinkRow> {
  const createdAt = new Date();
  const [row] = await query(
    db,
    `insert into payment_links (id, merchant_id, mode, token, amount_units, description, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${PAYMENT_LINK_COLUMNS}`,
    [
      newId("pl_"),
      owner.merchantId,
      owner.mode,
      // 32 base62 chars ≈ 190 bits: the token is the only secret guarding the public /pay page.
      randomBase62(32),
      input.amount.toString(),
      input.description ?? null,
      createdAt,
      new Date(createdAt.getTime() + LINK_LIFETIME_MS),
    ],
  );
  return toPaymentLinkRow(row!);
}
