import { describe, expect, it } from "vitest";
import {
  FALLBACK_UNIT_LIMIT,
  MAX_UNIT_LIMIT,
  unitLimitFor,
  unitPriceFor,
} from "@/lib/chains/solana/solana-priority-fee";

const slots = (prices: number[], from = 1000) => prices.map((p, i) => ({ slot: from + i, prioritizationFee: p }));

describe("the Solana compute-unit price", () => {
  it("is the price of the 75th percentile of the newest 20 slots: a quarter of them at a price is enough", () => {
    const quiet = Array<number>(15).fill(0);
    expect(unitPriceFor(slots([...quiet, ...Array<number>(5).fill(40_000)]), 10n ** 6n).price).toBe(0n);
    expect(unitPriceFor(slots([...quiet.slice(1), ...Array<number>(6).fill(40_000)]), 10n ** 6n).price).toBe(40_000n);
  });

  it("reads only the newest 20 slots, whatever order the node lists them in", () => {
    const old = slots(Array<number>(130).fill(900_000));
    const recent = slots(Array<number>(20).fill(7_000), 2000);
    expect(unitPriceFor([...recent, ...old].reverse(), 10n ** 6n)).toEqual({
      price: 7_000n,
      wanted: 7_000n,
      capped: false,
    });
  });

  it("never goes above the cap, and says so", () => {
    expect(unitPriceFor(slots(Array<number>(20).fill(3_000_000)), 1_000_000n)).toEqual({
      price: 1_000_000n,
      wanted: 3_000_000n,
      capped: true,
    });
  });

  it("is 0 when the node reports nothing", () => {
    expect(unitPriceFor([], 1_000_000n)).toEqual({ price: 0n, wanted: 0n, capped: false });
  });
});

describe("the Solana compute-unit limit", () => {
  it("is the simulated consumption plus a fifth, rounded up, within the runtime's maximum", () => {
    expect(unitLimitFor(31_337)).toBe(37_605);
    expect(unitLimitFor(10n)).toBe(12);
    expect(unitLimitFor(1_300_000)).toBe(MAX_UNIT_LIMIT);
  });

  it("falls back to the runtime's default for one instruction when the simulation measured nothing", () => {
    expect(unitLimitFor(0)).toBe(FALLBACK_UNIT_LIMIT);
    expect(unitLimitFor(undefined)).toBe(FALLBACK_UNIT_LIMIT);
  });
});
