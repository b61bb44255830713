import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import type { Db } from "@/lib/db/client";
import { safeEqual, sha256Hex } from "@/lib/crypto/hash";
import { ApiError } from "@/lib/api/errors";
import { KEY_PATTERN, type Mode } from "./api-key-format";

export interface AuthContext {
  keyId: string;
  merchantId: string;
  mode: Mode;
  scopes: string[];
}

const unauthorized = (message: string) =>
  new ApiError("unauthorized", message, { headers: { "WWW-Authenticate": 'Bearer realm="api"' } });

/**
 * Resolves `Authorization: Bearer <key>` to its merchant and mode. Every failure is the same type so a
 * caller learns nothing about which keys exist; messages only say what to fix on the caller's side.
 */
export async function authenticateApiKey(db: Db, authorization: string | null): Promise<AuthContext> {
  if (!authorization) throw unauthorized("No API key provided. Send it as 'Authorization: Bearer mnt_test_sk_…'.");
  const match = /^Bearer +(\S+)$/i.exec(authorization.trim());
  if (!match) throw unauthorized("Malformed Authorization header. Expected 'Authorization: Bearer <API key>'.");
  const secret = match[1]!;
  if (!KEY_PATTERN.test(secret)) throw unauthorized("Invalid API key: keys start with mnt_test_sk_ or mnt_live_sk_.");

  const hash = sha256Hex(secret);
  const [row] = await db
    .select({ id: apiKeys.id, merchantId: apiKeys.merchantId, mode: apiKeys.mode, scopes: apiKeys.scopes, secretHash: apiKeys.secretHash, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.secretHash, hash));
  // The index lookup is on a hash the caller cannot steer; the compare is constant-time regardless.
  if (!row || !safeEqual(row.secretHash, hash) || row.revokedAt) throw unauthorized("Invalid API key provided, or the key was revoked or rotated.");

  // last_used_at at one-minute resolution: one write per key per minute, not one per request.
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`))));

  return { keyId: row.id, merchantId: row.merchantId, mode: row.mode, scopes: row.scopes };
}
