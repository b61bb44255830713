import { describe, expect, it } from "vitest";
import { canonicalJson, safeEqual } from "@/lib/kernel/hash";
import { newId, randomBase62 } from "@/lib/kernel/random";
import { generateKeySecret, modeOfSecret } from "@/lib/identity/api-keys/api-key-format";
import { hasScope, parseScopes } from "@/lib/identity/api-keys/scopes";
import { formatAmount, parseAmount } from "@/lib/kernel/amount";

describe("amounts", () => {
  it("exact mode needs six decimals and yields integer base units", () => {
    expect(parseAmount("25.000000", "exact")).toEqual({ ok: true, units: 25_000_000n });
    expect(parseAmount("0.000001", "exact")).toEqual({ ok: true, units: 1n });
    expect(parseAmount("25", "exact").ok).toBe(false);
    expect(parseAmount("25.5", "exact").ok).toBe(false);
  });

  it("up-to-six mode accepts shorter fractions, never floats", () => {
    expect(parseAmount("25", "up_to_6")).toEqual({ ok: true, units: 25_000_000n });
    expect(parseAmount("0.1", "up_to_6")).toEqual({ ok: true, units: 100_000n });
    // 0.1 + 0.2 in floating point is 0.30000000000000004; base units add exactly.
    const a = parseAmount("0.1", "up_to_6");
    const b = parseAmount("0.2", "up_to_6");
    expect(a.ok && b.ok && formatAmount(a.units + b.units)).toBe("0.300000");
  });

  it("formats base units as six-decimal strings", () => {
    expect(formatAmount(0n)).toBe("0.000000");
    expect(formatAmount(1n)).toBe("0.000001");
    expect(formatAmount(123_456_789_012n)).toBe("123456.789012");
    expect(formatAmount(-5_000_000n)).toBe("-5.000000");
  });
});

describe("ids, keys and hashing", () => {
  it("random ids are prefixed, base62 and distinct", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId("pay_")));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^pay_[0-9A-Za-z]{24}$/);
    expect(randomBase62(43)).toHaveLength(43);
  });

  it("key secrets carry the mode prefix and ≥192 bits; only a hash is kept", () => {
    const live = generateKeySecret("live");
    expect(live.secret).toMatch(/^mnt_live_sk_[0-9A-Za-z]{43}$/);
    expect(43 * Math.log2(62)).toBeGreaterThan(192);
    expect(live.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(live.secretHash).not.toContain(live.secret.slice(12));
    expect(modeOfSecret(generateKeySecret("sandbox").secret)).toBe("sandbox");
  });

  it("canonical JSON ignores key order and spacing", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: "s" } })).toBe(
      '{"a":{"c":"s","d":[1,{"x":1,"y":2}]},"b":1}',
    );
    expect(canonicalJson({ a: 1 })).toBe(canonicalJson(JSON.parse('{ "a" : 1 }')));
  });

  it("safeEqual compares exactly", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
});

describe("scopes", () => {
  it("write implies read of the same family only", () => {
    expect(hasScope(["payouts:write"], "payouts:read")).toBe(true);
    expect(hasScope(["payouts:read"], "payouts:write")).toBe(false);
    expect(hasScope(["payouts:write"], "payments:read")).toBe(false);
  });

  it("parses a CLI list and names an unknown scope", () => {
    expect(parseScopes("payments:read, payouts:write,payments:read")).toEqual(["payments:read", "payouts:write"]);
    expect(() => parseScopes("payments:admin")).toThrow(/unknown scope "payments:admin"/);
  });
});
