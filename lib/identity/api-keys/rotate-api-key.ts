import { and, eq, isNull } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { createApiKey } from "./create-api-key";
import type { Scope } from "./scopes";

export class KeyNotFoundError extends Error {}

/** The longest the old secret may keep working after a roll (as Stripe allows). */
export const MAX_ROLL_OVERLAP_MS = 24 * 3_600_000;

/**
 * Issues a new key with the same merchant, mode and scopes, and revokes the old one in the same
 * transaction: by default from the commit on, the old secret gets 401 on every instance (keys are not
 * cached). With `overlapMs` (up to 24 hours) the old key is revoked as of that moment instead, so the caller
 * can deploy the new secret before the old one stops working. `createdByUserId`: the dashboard user who rolled it.
 */
export async function rotateApiKey(
  db: Db,
  keyId: string,
  opts: { overlapMs?: number; createdByUserId?: string | null } = {},
): Promise<{ id: string; secret: string; replaces: string; old_key_expires_at: string }> {
  const overlapMs = Math.min(Math.max(0, opts.overlapMs ?? 0), MAX_ROLL_OVERLAP_MS);
  return inTransaction(db, async (tx) => {
    const revokedAt = new Date(Date.now() + overlapMs);
    const [old] = await tx
      .update(apiKeys)
      .set({ revokedAt })
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
      .returning();
    if (!old) throw new KeyNotFoundError(`no active key ${keyId}`);
    const created = await createApiKey(tx, {
      merchantId: old.merchantId,
      mode: old.mode,
      scopes: old.scopes as Scope[],
      replacesKeyId: old.id,
      createdByUserId: opts.createdByUserId ?? null,
    });
    return { id: created.id, secret: created.secret, replaces: old.id, old_key_expires_at: revokedAt.toISOString() };
  });
}
