import { eq } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import type { Db } from "@/lib/platform/db/client";
import { KeyNotFoundError } from "./rotate-api-key";
import { serializeApiKey } from "./serialize-api-key";

/**
 * Revokes a key at once; revoking an already revoked key is a no-op that reports the original time. A rolled
 * key still in its overlap is revoked now.
 */
export async function revokeApiKey(db: Db, keyId: string) {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
  if (!row) throw new KeyNotFoundError(`no key ${keyId}`);
  if (row.revokedAt && row.revokedAt.getTime() <= Date.now()) return serializeApiKey(row);
  const [updated] = await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId)).returning();
  return serializeApiKey(updated!);
}
