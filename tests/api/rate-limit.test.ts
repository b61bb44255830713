import { Redis } from "ioredis";
import { describe, expect, inject, it } from "vitest";
import { getPool } from "@/lib/platform/db/client";
import { api, expectError, newMerchant, webUrls } from "../helpers/api";

/** The counters live where the README says: Redis when REDIS_URL is set, Postgres otherwise. */
async function storedHits(bucket: string): Promise<number> {
  if (process.env.REDIS_URL) {
    const redis = new Redis(process.env.REDIS_URL);
    const n = await redis.zcard(`${inject("redisKeyPrefix")}rl:${bucket}`);
    await redis.quit();
    return n;
  }
  const res = await getPool().query<{ n: number }>(
    "select cardinality(hits) as n from rate_limit_buckets where bucket = $1",
    [bucket],
  );
  return res.rows[0]?.n ?? 0;
}

describe("per-key rate limit over HTTP", () => {
  it("60 per minute shared by both web instances; the 61st gets 429 with Retry-After", async () => {
    const m = await newMerchant();
    const replies = [];
    for (let i = 0; i < 60; i += 10) {
      replies.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, j) =>
            api("GET", "/v1/payment-links", { key: m.sandboxKey, server: (i + j) % 2 }),
          ),
        )),
      );
    }
    expect(replies.map((r) => r.status)).toEqual(Array(60).fill(200));
    expect(replies.map((r) => Number(r.headers.get("ratelimit-remaining"))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 60 }, (_, i) => i),
    );

    for (const server of [0, 1]) {
      const limited = await api("GET", "/v1/payment-links", { key: m.sandboxKey, server });
      const err = expectError(limited, "rate_limit_exceeded", 429);
      const retryAfter = Number(limited.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(err.message).toContain(`Retry after ${retryAfter} second`);
    }
    // POSTs count against the same window; other keys of the merchant do not.
    expectError(
      await api("POST", "/v1/payment-links", { key: m.sandboxKey, body: { amount: "1" } }),
      "rate_limit_exceeded",
      429,
    );
    expect((await api("GET", "/v1/payment-links", { key: m.liveKey })).status).toBe(200);
    expect(await storedHits(`key:${m.sandboxKeyId}:default`)).toBe(60);
  });
});

describe("per-IP limit of the public pages", () => {
  it("30 requests per minute per client IP across /checkout and /pay, then a readable 429 page", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${webUrls()[i % 2]}/${i % 2 ? "pay" : "checkout"}/unknown_${i}`);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses.every((s) => s !== 429)).toBe(true);
    const limited = await fetch(`${webUrls()[0]}/checkout/anything`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("content-type")).toMatch(/text\/html/);
    expect(await limited.text()).toMatch(/Too many requests/);
    // The API is not affected by the page limit.
    const m = await newMerchant();
    expect((await api("GET", "/v1/payment-links", { key: m.sandboxKey })).status).toBe(200);
  });
});
