import { describe, expect, it } from "vitest";
import { backoffDelay } from "@/lib/kernel/backoff";

describe("backoffDelay", () => {
  it("starts at the base, doubles each attempt and stops at the cap", () => {
    const waits = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelay(n, { baseMs: 500, maxMs: 30_000 }));
    expect(waits).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });

  it("keeps the cap for very many attempts", () => {
    expect(backoffDelay(10_000, { baseMs: 5, maxMs: 30_000 })).toBe(30_000);
  });
});
