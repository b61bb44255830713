import { and, desc, eq } from "drizzle-orm";
import { paymentLinks } from "@/db/schema";
import type { Db } from "@/lib/db/client";
import type { Mode } from "@/lib/keys/api-key-format";

/** Every link of the merchant in this mode, newest first (id breaks ties); the spec defines no paging. */
export function listPaymentLinks(db: Db, owner: { merchantId: string; mode: Mode }) {
  return db
    .select()
    .from(paymentLinks)
    .where(and(eq(paymentLinks.merchantId, owner.merchantId), eq(paymentLinks.mode, owner.mode)))
    .orderBy(desc(paymentLinks.createdAt), desc(paymentLinks.id));
}
