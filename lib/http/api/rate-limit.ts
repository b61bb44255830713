import {
  authenticateAndAdmit,
  type AuthContext,
  type KeyAdmission,
} from "@/lib/identity/api-keys/authenticate-api-key";
import type { Db } from "@/lib/platform/db/client";
import {
  getRateLimiter,
  LIMITS,
  retryAfterSeconds,
  WINDOW_MS,
  type RateLimitClass,
} from "@/lib/platform/rate-limit/policies";
import { PostgresRateLimiter } from "@/lib/platform/rate-limit/postgres-limiter";
import type { RateLimitResult } from "@/lib/platform/rate-limit/types";
import { ApiError } from "./errors";

/** A key's window for a route class: each class is its own (payout calls do not eat the default 60). */
const bucketPrefix = "key:";
const bucketSuffix = (cls: RateLimitClass) => `:${cls}`;
const keyBucket = (keyId: string, cls: RateLimitClass) => `${bucketPrefix}${keyId}${bucketSuffix(cls)}`;

/**
 * Authenticates the request's key and admits it into the key's window for this route class. With the
 * Postgres limiter, a key not in the process's cache is read and admitted in one statement; otherwise the
 * limiter is asked after. The window's answer is checked by `rateLimitHeaders`.
 */
export async function authenticateAdmitted(
  db: Db,
  authorization: string | null,
  cls: RateLimitClass,
): Promise<{ auth: AuthContext; rate: RateLimitResult }> {
  const limiter = getRateLimiter();
  const limit = LIMITS[cls];
  const admission: KeyAdmission | null =
    limiter instanceof PostgresRateLimiter
      ? { limiter, bucketPrefix, bucketSuffix: bucketSuffix(cls), limit, windowMs: WINDOW_MS }
      : null;
  const { auth, admission: admitted } = await authenticateAndAdmit(db, authorization, admission);
  const rate = admitted ?? (await limiter.hit(keyBucket(auth.keyId, cls), limit, WINDOW_MS));
  return { auth, rate };
}

/**
 * Applies the key's limit for this route class; returns the RateLimit-* headers for the response or
 * throws 429 with Retry-After.
 */
export async function enforceKeyRateLimit(auth: AuthContext, cls: RateLimitClass): Promise<Record<string, string>> {
  const limit = LIMITS[cls];
  return rateLimitHeaders(await getRateLimiter().hit(keyBucket(auth.keyId, cls), limit, WINDOW_MS));
}

/** The RateLimit-* headers of an admitted request; a 429 with Retry-After for a refused one. */
export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  const { limit } = result;
  const headers = { "RateLimit-Limit": String(limit), "RateLimit-Remaining": String(result.remaining) };
  if (result.allowed) return headers;
  const wait = retryAfterSeconds(result.retryAfterMs);
  throw new ApiError(
    "rate_limit_exceeded",
    `Rate limit of ${limit} requests per 60 seconds exceeded for this API key. ` +
      `Retry after ${wait} second${wait === 1 ? "" : "s"}.`,
    {
      headers: { ...headers, "Retry-After": String(wait) },
    },
  );
}
