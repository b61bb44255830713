import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getPool } from "@/lib/platform/db/client";
import { PostgresRateLimiter, pruneRateLimitBuckets } from "@/lib/platform/rate-limit/postgres-limiter";
import { RedisRateLimiter } from "@/lib/platform/rate-limit/redis-limiter";
import type { RateLimiter } from "@/lib/platform/rate-limit/types";

const stores: [string, () => RateLimiter][] = [["postgres", () => new PostgresRateLimiter(getPool)]];
if (process.env.REDIS_URL) stores.push(["redis", () => new RedisRateLimiter(process.env.REDIS_URL!)]);

describe.each(stores)("sliding window (%s)", (_name, make) => {
  const bucket = () => `test:${randomBytes(6).toString("hex")}`;

  it("admits `limit` requests per window and tells how long to wait", async () => {
    const limiter = make();
    const b = bucket();
    const t0 = 1_000_000_000_000;
    for (let i = 0; i < 5; i++) {
      const r = await limiter.hit(b, 5, 60_000, t0 + i * 1000);
      expect(r).toMatchObject({ allowed: true, remaining: 4 - i });
    }
    const denied = await limiter.hit(b, 5, 60_000, t0 + 10_000);
    expect(denied.allowed).toBe(false);
    // The oldest admitted request (t0) leaves the window at t0 + 60 s: 50 s from now.
    expect(denied.retryAfterMs).toBe(50_000);
    await limiter.close?.();
  });

  it("slides: requests leave the window one by one, not all at a fixed boundary", async () => {
    const limiter = make();
    const b = bucket();
    const t0 = 1_000_000_000_000;
    // t0, +20s, +40s
    for (let i = 0; i < 3; i++) expect((await limiter.hit(b, 3, 60_000, t0 + i * 20_000)).allowed).toBe(true);
    expect((await limiter.hit(b, 3, 60_000, t0 + 59_999)).allowed).toBe(false);
    expect((await limiter.hit(b, 3, 60_000, t0 + 60_001)).allowed).toBe(true); // t0 left; +60.001 admitted
    expect((await limiter.hit(b, 3, 60_000, t0 + 70_000)).allowed).toBe(false); // +20s still inside
    const r = await limiter.hit(b, 3, 60_000, t0 + 80_001);
    expect(r.allowed).toBe(true); // +20s left
    await limiter.close?.();
  });

  it("rejected requests do not extend the wait", async () => {
    const limiter = make();
    const b = bucket();
    const t0 = 1_000_000_000_000;
    expect((await limiter.hit(b, 1, 60_000, t0)).allowed).toBe(true);
    for (let i = 1; i <= 10; i++) expect((await limiter.hit(b, 1, 60_000, t0 + i * 5_000)).allowed).toBe(false);
    expect((await limiter.hit(b, 1, 60_000, t0 + 60_001)).allowed).toBe(true);
    await limiter.close?.();
  });

  it("is exact under concurrency", async () => {
    const limiter = make();
    const b = bucket();
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 40 }, () => limiter.hit(b, 10, 60_000, now)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    await limiter.close?.();
  });
});

describe("postgres bucket pruning", () => {
  it("deletes idle buckets only", async () => {
    const limiter = new PostgresRateLimiter(getPool);
    const idle = `test:idle:${randomBytes(4).toString("hex")}`;
    const busy = `test:busy:${randomBytes(4).toString("hex")}`;
    await limiter.hit(idle, 5, 60_000);
    await limiter.hit(busy, 5, 60_000);
    await getPool().query(
      "update rate_limit_buckets set updated_at = now() - interval '10 minutes' where bucket = $1",
      [idle],
    );
    // Until none is left, as the prune job does: the suite's other idle buckets share the table, and one batch of
    // them (1,000, in no order) need not hold this one.
    while ((await pruneRateLimitBuckets(getPool(), 120_000)) > 0);
    const left = await getPool().query("select bucket from rate_limit_buckets where bucket = any($1)", [[idle, busy]]);
    expect(left.rows.map((r) => r.bucket)).toEqual([busy]);
  });
});
