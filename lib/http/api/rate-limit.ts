import type { AuthContext } from "@/lib/identity/api-keys/authenticate-api-key";
import {
  getRateLimiter,
  LIMITS,
  retryAfterSeconds,
  WINDOW_MS,
  type RateLimitClass,
} from "@/lib/platform/rate-limit/policies";
import { ApiError } from "./errors";

/**
 * Applies the key's limit for this route class; returns the RateLimit-* headers for the response or
 * throws 429 with Retry-After. Each class is its own window (payout calls do not eat the default 60).
 */
export async function enforceKeyRateLimit(auth: AuthContext, cls: RateLimitClass): Promise<Record<string, string>> {
  const limit = LIMITS[cls];
  const result = await getRateLimiter().hit(`key:${auth.keyId}:${cls}`, limit, WINDOW_MS);
  const headers = { "RateLimit-Limit": String(limit), "RateLimit-Remaining": String(result.remaining) };
  if (result.allowed) return headers;
  const wait = retryAfterSeconds(result.retryAfterMs);
  throw new ApiError(
    "rate_limit_exceeded",
    `Rate limit of ${limit} requests per 60 seconds exceeded for this API key. Retry after ${wait} second${wait === 1 ? "" : "s"}.`,
    {
      headers: { ...headers, "Retry-After": String(wait) },
    },
  );
}
