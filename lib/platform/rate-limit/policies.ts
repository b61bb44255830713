import { config } from "@/lib/platform/config/env";
import { getPool } from "@/lib/platform/db/client";
import { PostgresRateLimiter } from "./postgres-limiter";
import { RedisRateLimiter } from "./redis-limiter";
import type { RateLimiter } from "./types";

/** A sliding 60-second window (docs/API.md#rate-limits). */
export const WINDOW_MS = 60_000;

/**
 * Per-API-key limits by route class; per-client-IP for the public hosted pages and for the passkey
 * challenges the dashboard's sign-in page hands out before anyone is signed in; per payment for the
 * checkout's sandbox wallet button (faucet transfers on chains every tenant shares).
 */
export const LIMITS = {
  default: 60,
  payouts: 10,
  replay: 10,
  public_pages: 30,
  passkey_challenges: 30,
  sandbox_pay: 3,
} as const;
export type RateLimitClass = keyof typeof LIMITS;

const registry = globalThis as unknown as { __usdtLimiter?: RateLimiter };

/** Redis when REDIS_URL is set, Postgres otherwise: either way shared by every web instance. */
export function getRateLimiter(): RateLimiter {
  const { redisUrl } = config();
  registry.__usdtLimiter ??= redisUrl ? new RedisRateLimiter(redisUrl) : new PostgresRateLimiter(getPool);
  return registry.__usdtLimiter;
}

export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
