import type { Db } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { sha256Hex } from "@/lib/kernel/hash";
import { DomainError } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { admitSql, admittedResult, type PostgresRateLimiter } from "@/lib/platform/rate-limit/postgres-limiter";
import type { RateLimitResult } from "@/lib/platform/rate-limit/types";
import { KEY_PATTERN } from "./api-key-format";
import { verifiedKeyCache } from "./verified-key-cache";

export interface AuthContext {
  keyId: string;
  merchantId: string;
  mode: Mode;
  scopes: string[];
}

interface KeyRow {
  id: string;
  merchant_id: string;
  mode: Mode;
  scopes: string[];
  revoked_at: Date | null;
  last_used_at: Date | null;
}

/** A Postgres rate-limit window to admit the request into in the key's own statement (one round trip). */
export interface KeyAdmission {
  limiter: PostgresRateLimiter;
  /** The bucket is `${bucketPrefix}${keyId}${bucketSuffix}`, as the limiter names it. */
  bucketPrefix: string;
  bucketSuffix: string;
  limit: number;
  windowMs: number;
}

const LAST_USED_RESOLUTION_MS = 60_000;
const lastUseStale = (key: KeyRow, now: number) =>
  !key.last_used_at || now - key.last_used_at.getTime() > LAST_USED_RESOLUTION_MS;

// The /v1 edge adds the WWW-Authenticate challenge to every 401 (lib/http/api/errors.ts).
const unauthorized = (message: string) => new DomainError("unauthorized", message);

// The key by its hash, not yet revoked at $2 (ms); last_used_at at one-minute resolution (one write per key
// per minute, not one per request), in the same statement.
const KEY_COLUMNS = "id, merchant_id, mode, scopes, revoked_at, last_used_at";
const KEY_CTES = `k as (select ${KEY_COLUMNS} from api_keys where secret_hash = $1),
  live as (select id from k where k.revoked_at is null or k.revoked_at > to_timestamp($2::bigint / 1000.0)),
  touched as (update api_keys set last_used_at = now() where id = (select id from live)
    and (last_used_at is null or last_used_at < now() - interval '60 seconds'))`;
const KEY = `with ${KEY_CTES} select ${KEY_COLUMNS} from k`;
const KEY_AND_ADMISSION = `with ${KEY_CTES},
  admitted as (${admitSql("select $3::text || live.id || $4::text, array[$2::bigint], now() from live", {
    now: "$2",
    window: "$5",
    limit: "$6",
  })})
  select k.*, (select count from admitted) as admitted from k`;

/**
 * Resolves `Authorization: Bearer <key>` to its merchant and mode. Every failure is the same type so a
 * caller learns nothing about which keys exist; messages only say what to fix on the caller's side.
 */
export async function authenticateApiKey(db: Db, authorization: string | null): Promise<AuthContext> {
  return (await authenticateAndAdmit(db, authorization, null)).auth;
}

/**
 * As authenticateApiKey, and when `admission` is given and the key is not in this process's cache of
 * verified keys, admits the request into its rate-limit window in the same statement. `admission` in the
 * answer is null when the caller must still ask the limiter (a cached key, or no admission asked).
 */
export async function authenticateAndAdmit(
  db: Db,
  authorization: string | null,
  admission: KeyAdmission | null,
  now = Date.now(),
): Promise<{ auth: AuthContext; admission: RateLimitResult | null }> {
  const hash = secretHashOf(authorization);
  const cache = verifiedKeyCache<KeyRow>();
  const cached = cache.get(hash, now);
  if (cached) {
    const auth = acceptKey(cached, now);
    if (lastUseStale(cached, now)) {
      await execute(db, "update api_keys set last_used_at = now() where id = $1", [cached.id]);
      cached.last_used_at = new Date(now);
    }
    return { auth, admission: null };
  }
  const mark = cache.mark();
  const [row] = admission
    ? await query<KeyRow & { admitted: number | null }>(db, KEY_AND_ADMISSION, [
        hash,
        now,
        admission.bucketPrefix,
        admission.bucketSuffix,
        admission.windowMs,
        admission.limit,
      ])
    : await query<KeyRow>(db, KEY, [hash, now]);
  const auth = acceptKey(row, now);
  const { admitted, ...key } = row as KeyRow & { admitted?: number | null };
  if (lastUseStale(key, now)) key.last_used_at = new Date(now); // the statement touched it
  cache.put(hash, key, mark, now);
  if (!admission) return { auth, admission: null };
  if (admitted !== null && admitted !== undefined)
    return { auth, admission: admittedResult(admission.limit, admitted) };
  const bucket = `${admission.bucketPrefix}${auth.keyId}${admission.bucketSuffix}`;
  return { auth, admission: await admission.limiter.refused(bucket, admission.limit, admission.windowMs, now) };
}

function secretHashOf(authorization: string | null): string {
  if (!authorization) throw unauthorized("No API key provided. Send it as 'Authorization: Bearer mnt_test_sk_…'.");
  const match = /^Bearer +(\S+)$/i.exec(authorization.trim());
  if (!match) throw unauthorized("Malformed Authorization header. Expected 'Authorization: Bearer <API key>'.");
  const secret = match[1]!;
  if (!KEY_PATTERN.test(secret)) throw unauthorized("Invalid API key: keys start with mnt_test_sk_ or mnt_live_sk_.");
  return sha256Hex(secret);
}

/**
 * The key's owner, unless there is no such key or it is revoked (a revoked_at in the future is a rolled key's overlap).
 */
function acceptKey(row: KeyRow | undefined, now: number): AuthContext {
  if (!row || (row.revoked_at && row.revoked_at.getTime() <= now))
    throw unauthorized("Invalid API key provided, or the key was revoked or rotated.");
  return { keyId: row.id, merchantId: row.merchant_id, mode: row.mode, scopes: row.scopes };
}
