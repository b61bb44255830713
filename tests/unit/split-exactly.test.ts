import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitExactly } from "@/lib/money-out/costs/split-exactly";

describe("splitExactly (a fee shared among the payments a sweep collected)", () => {
  it("splits in proportion, the units left over to the largest remainders", () => {
    expect(splitExactly(100n, [1n, 1n, 1n])).toEqual([34n, 33n, 33n]);
    expect(splitExactly(6_428_500n, [5_000_000n, 3_000_000n])).toEqual([4_017_813n, 2_410_687n]);
    expect(splitExactly(10n, [3n, 0n, 7n])).toEqual([3n, 0n, 7n]);
    expect(splitExactly(7n, [])).toEqual([]);
    expect(splitExactly(7n, [0n, 0n])).toEqual([4n, 3n]);
  });

  it("always sums to the total exactly, never negative, never more than a proportional share plus one", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 20n }), { minLength: 1, maxLength: 20 }),
        (total, weights) => {
          const parts = splitExactly(total, weights);
          expect(parts.reduce((a, p) => a + p, 0n)).toBe(total);
          const sum = weights.reduce((a, w) => a + w, 0n);
          for (const [i, p] of parts.entries()) {
            expect(p >= 0n).toBe(true);
            if (sum > 0n) expect(p <= (total * weights[i]!) / sum + 1n).toBe(true);
          }
        },
      ),
    );
  });
});
