import type { Db } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { safeEqual, sha256Hex } from "@/lib/kernel/hash";
import { DomainError } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { KEY_PATTERN } from "./api-key-format";

export interface AuthContext {
  keyId: string;
  merchantId: string;
  mode: Mode;
  scopes: string[];
}

const LAST_USED_RESOLUTION_MS = 60_000;

interface KeyRow {
  id: string;
  merchant_id: string;
  mode: Mode;
  scopes: string[];
  secret_hash: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

// The /v1 edge adds the WWW-Authenticate challenge to every 401 (lib/http/api/errors.ts).
const unauthorized = (message: string) => new DomainError("unauthorized", message);

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
  const [row] = await query<KeyRow>(
    db,
    "select id, merchant_id, mode, scopes, secret_hash, revoked_at, last_used_at from api_keys where secret_hash = $1",
    [hash],
  );
  // The index lookup is on a hash the caller cannot steer; the compare is constant-time regardless.
  // A revoked_at in the future is a rolled key's overlap: it still works until then.
  if (!row || !safeEqual(row.secret_hash, hash) || (row.revoked_at && row.revoked_at.getTime() <= Date.now()))
    throw unauthorized("Invalid API key provided, or the key was revoked or rotated.");

  // last_used_at at one-minute resolution: one write per key per minute, not one per request.
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    await execute(db, "update api_keys set last_used_at = now() where id = $1", [row.id]);
  }

  return { keyId: row.id, merchantId: row.merchant_id, mode: row.mode, scopes: row.scopes };
}
