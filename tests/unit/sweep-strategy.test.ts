import { describe, expect, it } from "vitest";
import { chainOn, configProblems } from "../helpers/config-problems";
import { loadConfig } from "@/lib/platform/config/env";
import { sweepStrategy } from "@/lib/money-out/sweeps/sweep-strategy";
import { sweeperContract } from "@/lib/chains/evm/deposit-sweeper";

const on = chainOn;

describe("the sweep strategy per chain", () => {
  it(
    "defaults to batched EIP-7702 sweeps on every EVM chain, " + "live and sandbox; Tron and Solana have their own way",
    () => {
      const cfg = loadConfig({});
      for (const chain of ["eth", "bnb", "polygon"] as const) {
        expect(sweepStrategy(on("live", chain), cfg)).toBe("batch7702");
        expect(sweepStrategy(on("sandbox", chain), cfg)).toBe("batch7702");
      }
      expect(sweepStrategy(on("live", "tron"), cfg)).toBe("topup");
      expect(sweepStrategy(on("sandbox", "solana"), cfg)).toBe("topup");
    },
  );

  it("takes <CHAIN>_SWEEP_STRATEGY in both modes, and SANDBOX_SWEEP_STRATEGY for the other sandbox chains", () => {
    const cfg = loadConfig({
      POLYGON_SWEEP_STRATEGY: "topup",
      SANDBOX_SWEEP_STRATEGY: "topup",
      ETH_SWEEP_STRATEGY: "batch7702",
    });
    expect(sweepStrategy(on("live", "polygon"), cfg)).toBe("topup");
    expect(sweepStrategy(on("sandbox", "polygon"), cfg)).toBe("topup");
    expect(sweepStrategy(on("sandbox", "bnb"), cfg)).toBe("topup");
    expect(sweepStrategy(on("sandbox", "eth"), cfg)).toBe("batch7702");
    expect(sweepStrategy(on("live", "bnb"), cfg)).toBe("batch7702");
  });

  it("refuses an unknown strategy, and batch7702 on a chain that is not EVM", () => {
    expect(configProblems({ BNB_SWEEP_STRATEGY: "7702" })).toEqual([
      'BNB_SWEEP_STRATEGY must be one of topup, batch7702, got "7702"',
    ]);
    expect(configProblems({ TRON_SWEEP_STRATEGY: "batch7702" })).toEqual([
      "TRON_SWEEP_STRATEGY must be topup (batch7702 needs an EVM chain)",
    ]);
  });
});

describe("the sweeper contract's address", () => {
  it(
    "depends only on the treasury and the sweeper (CREATE2): " +
      "the same on every chain, another for another treasury",
    () => {
      const treasury = "0x1111111111111111111111111111111111111111";
      const sweeper = "0x2222222222222222222222222222222222222222";
      const a = sweeperContract(treasury, sweeper);
      expect(sweeperContract(treasury, sweeper)).toEqual(a);
      expect(sweeperContract("0x3333333333333333333333333333333333333333", sweeper).address).not.toBe(a.address);
      expect(sweeperContract(treasury, "0x3333333333333333333333333333333333333333").address).not.toBe(a.address);
      expect(a.deployData.slice(0, 66)).toBe(`0x${"00".repeat(32)}`); // the salt, then the creation code
    },
  );
});
