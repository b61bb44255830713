import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { config } from "@/lib/platform/config/env";
import type { RateLimiter, RateLimitResult } from "./types";

// Same algorithm as the Postgres limiter, as one Lua script so it is atomic in Redis.
const SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count < limit then
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('PEXPIRE', key, window)
  return {1, count + 1, 0}
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {0, count, tonumber(oldest[2])}`;

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  // Lets several installations (or test runs) share one Redis without sharing counters.
  private readonly prefix = config().redisKeyPrefix;

  constructor(url: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    this.redis.on("error", (err) => console.error(`[rate-limit] redis: ${err.message}`));
  }

  async hit(bucket: string, limit: number, windowMs: number, nowMs = Date.now()): Promise<RateLimitResult> {
    const member = `${nowMs}-${randomBytes(6).toString("hex")}`;
    const [ok, count, oldest] = (await this.redis.eval(
      SCRIPT,
      1,
      `${this.prefix}rl:${bucket}`,
      nowMs,
      windowMs,
      limit,
      member,
    )) as [number, number, number];
    if (ok === 1) return { allowed: true, limit, remaining: Math.max(0, limit - count), retryAfterMs: 0 };
    return { allowed: false, limit, remaining: 0, retryAfterMs: Math.max(1, oldest + windowMs - nowMs) };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
