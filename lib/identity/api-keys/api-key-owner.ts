import { and, eq } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { KeyNotFoundError } from "./rotate-api-key";

/** The dashboard user who created (or rolled) a key; null for keys made by the CLI or before users existed. */
export async function apiKeyCreator(db: Db, keyId: string): Promise<string | null> {
  const [key] = await query<{ created_by_user_id: string | null }>(
    db,
    "select created_by_user_id from api_keys where id = $1",
    [keyId],
  );
  return key?.created_by_user_id ?? null;
}

/** The key row of this merchant and mode, locked for the transaction; another merchant's or mode's key is not found. */
export async function lockOwnApiKey(tx: Db, owner: { merchantId: string; mode: Mode }, keyId: string) {
  const [row] = await tx
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.merchantId, owner.merchantId), eq(apiKeys.mode, owner.mode)))
    .for("update");
  if (!row) throw new KeyNotFoundError(`No such key: ${keyId}`);
  return row;
}
