import { and, eq, isNull } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import { inTransaction, type Db } from "@/lib/db/client";
import { createApiKey } from "./create-api-key";
import type { Scope } from "./scopes";

export class KeyNotFoundError extends Error {}

/**
 * Issues a new key with the same merchant, mode and scopes, and revokes the old one in the same
 * transaction: from the commit on, the old secret gets 401 on every instance (keys are not cached).
 */
export async function rotateApiKey(db: Db, keyId: string): Promise<{ id: string; secret: string; replaces: string }> {
  return inTransaction(db, async (tx) => {
    const [old] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
      .returning();
    if (!old) throw new KeyNotFoundError(`no active key ${keyId}`);
    const created = await createApiKey(tx, {
      merchantId: old.merchantId,
      mode: old.mode,
      scopes: old.scopes as Scope[],
      replacesKeyId: old.id,
    });
    return { id: created.id, secret: created.secret, replaces: old.id };
  });
}
