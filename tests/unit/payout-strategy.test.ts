import { describe, expect, it } from "vitest";
import { chainOn, configProblems } from "../helpers/config-problems";
import { loadConfig } from "@/lib/platform/config/env";
import { payoutStrategy } from "@/lib/money-out/payouts/payout-strategy";

const on = chainOn;

describe("the payout strategy per chain", () => {
  it("defaults to batches on live EVM chains, to single transfers in sandbox and on Tron and Solana", () => {
    const cfg = loadConfig({});
    for (const chain of ["eth", "bnb", "polygon"] as const) {
      expect(payoutStrategy(on("live", chain), cfg)).toBe("batch");
      expect(payoutStrategy(on("sandbox", chain), cfg)).toBe("single");
    }
    expect(payoutStrategy(on("live", "tron"), cfg)).toBe("single");
    expect(payoutStrategy(on("live", "solana"), cfg)).toBe("single");
  });

  it("takes <CHAIN>_PAYOUT_STRATEGY in both modes, and SANDBOX_PAYOUT_STRATEGY for the other sandbox chains", () => {
    const cfg = loadConfig({
      POLYGON_PAYOUT_STRATEGY: "single",
      SANDBOX_PAYOUT_STRATEGY: "batch",
      ETH_PAYOUT_STRATEGY: "single",
    });
    expect(payoutStrategy(on("live", "polygon"), cfg)).toBe("single");
    expect(payoutStrategy(on("sandbox", "eth"), cfg)).toBe("single");
    expect(payoutStrategy(on("sandbox", "bnb"), cfg)).toBe("batch");
    expect(payoutStrategy(on("live", "bnb"), cfg)).toBe("batch");
    expect(payoutStrategy(on("sandbox", "tron"), cfg)).toBe("single");
  });

  it("reads batch7702, the first design's name, as batch", () => {
    const cfg = loadConfig({ SANDBOX_PAYOUT_STRATEGY: "batch7702", ETH_PAYOUT_STRATEGY: "batch7702" });
    expect(payoutStrategy(on("sandbox", "bnb"), cfg)).toBe("batch");
    expect(payoutStrategy(on("live", "eth"), cfg)).toBe("batch");
  });

  it("refuses an unknown strategy, and batches on a chain that is not EVM", () => {
    expect(configProblems({ BNB_PAYOUT_STRATEGY: "many" })).toEqual([
      'BNB_PAYOUT_STRATEGY must be one of single, batch, batch7702, got "many"',
    ]);
    expect(configProblems({ SOLANA_PAYOUT_STRATEGY: "batch" })).toEqual([
      "SOLANA_PAYOUT_STRATEGY must be single (batch needs an EVM chain)",
    ]);
    expect(configProblems({ SOLANA_PAYOUT_STRATEGY: "many" })).toEqual([
      'SOLANA_PAYOUT_STRATEGY must be one of single, batch, batch7702, got "many"',
    ]);
  });
});
