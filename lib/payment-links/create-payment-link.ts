import { paymentLinks } from "@/db/schema";
import type { Db } from "@/lib/db/client";
import { newId, randomBase62 } from "@/lib/crypto/random";
import type { Mode } from "@/lib/keys/api-key-format";
import type { CreatePaymentLinkInput } from "./schemas";

/** Spec 3.3: fixed 30 minutes, not extendable. */
export const LINK_LIFETIME_MS = 30 * 60 * 1000;

export async function createPaymentLink(db: Db, owner: { merchantId: string; mode: Mode }, input: CreatePaymentLinkInput) {
  const createdAt = new Date();
  const [row] = await db
    .insert(paymentLinks)
    .values({
      id: newId("pl_"),
      merchantId: owner.merchantId,
      mode: owner.mode,
      // 32 base62 chars ≈ 190 bits: the token is the only secret guarding the public /pay page.
      token: randomBase62(32),
      amountUnits: input.amount,
      description: input.description ?? null,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + LINK_LIFETIME_MS),
    })
    .returning();
  return row!;
}
