import type { Db, Statement } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { newId, randomBase62 } from "@/lib/kernel/random";
import type { Mode } from "@/lib/kernel/mode";
import type { PaymentLinkRow } from "./payment-link-row";
import type { CreatePaymentLinkInput } from "./schemas";

/** A link is active for a fixed 30 minutes, not extendable (docs/API.md#payment-links). */
export const LINK_LIFETIME_MS = 30 * 60 * 1000;

/**
 * The link and the statement that writes it. Everything is decided here (ids, times), so the /v1 route can
 * answer before the row is written and send the insert with the stored response and the COMMIT, in one
 * round trip (lib/http/api/execute-write.ts).
 */
export function planPaymentLink(
  owner: { merchantId: string; mode: Mode },
  input: CreatePaymentLinkInput,
  now = new Date(),
): { row: PaymentLinkRow; write: Statement } {
  const row: PaymentLinkRow = {
    id: newId("pl_"),
    merchantId: owner.merchantId,
    mode: owner.mode,
    // 32 base62 chars ≈ 190 bits: the token is the only secret guarding the public /pay page.
    token: randomBase62(32),
    amountUnits: input.amount,
    description: input.description ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + LINK_LIFETIME_MS),
    deactivatedAt: null,
  };
  const write = {
    text: `insert into payment_links (id, merchant_id, mode, token, amount_units, description, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    values: [
      row.id,
      row.merchantId,
      row.mode,
      row.token,
      row.amountUnits.toString(),
      row.description,
      row.createdAt,
      row.expiresAt,
    ],
  };
  return { row, write };
}

export async function createPaymentLink(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  input: CreatePaymentLinkInput,
): Promise<PaymentLinkRow> {
  const { row, write } = planPaymentLink(owner, input);
  await query(db, write.text, write.values);
  return row;
}
