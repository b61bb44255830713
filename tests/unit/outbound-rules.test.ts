import { describe, expect, it } from "vitest";
import { IllegalTransitionError } from "@/lib/kernel/define-lifecycle";
import { bumpedFees } from "@/lib/chains/evm/evm-fees";
import { OUTBOUND_LIFECYCLE } from "@/lib/money-out/outbound/outbound-lifecycle";
import type { CandidateRow } from "@/lib/money-out/outbound/outbound-row";

const GWEI = 1_000_000_000n;
const previous = (maxFee: bigint, tip: bigint) =>
  ({ maxFeePerGas: maxFee, maxPriorityFeePerGas: tip }) as unknown as CandidateRow;

describe("EVM fee replacement", () => {
  it("raises both fees by at least 10 % (12.5 %), and to the market when the market is higher", () => {
    const bumped = bumpedFees(
      previous(10n * GWEI, 1n * GWEI),
      { maxFeePerGas: GWEI, maxPriorityFeePerGas: GWEI },
      1000n * GWEI,
    )!;
    expect(bumped.maxFeePerGas).toBe(11_250_000_000n);
    expect(bumped.maxPriorityFeePerGas).toBe(1_125_000_000n);
    const market = bumpedFees(
      previous(10n * GWEI, GWEI),
      { maxFeePerGas: 50n * GWEI, maxPriorityFeePerGas: 2n * GWEI },
      1000n * GWEI,
    )!;
    expect(market).toEqual({ maxFeePerGas: 50n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
  });

  it("never exceeds the chain's cap, and gives up when the cap leaves no valid (+10 %) replacement", () => {
    expect(
      bumpedFees(previous(10n * GWEI, GWEI), { maxFeePerGas: 90n * GWEI, maxPriorityFeePerGas: GWEI }, 20n * GWEI),
    ).toEqual({
      maxFeePerGas: 20n * GWEI,
      maxPriorityFeePerGas: 1_125_000_000n,
    });
    expect(
      bumpedFees(previous(20n * GWEI, GWEI), { maxFeePerGas: 90n * GWEI, maxPriorityFeePerGas: GWEI }, 21n * GWEI),
    ).toBeNull();
    expect(
      bumpedFees(previous(20n * GWEI, GWEI), { maxFeePerGas: 90n * GWEI, maxPriorityFeePerGas: GWEI }, 22n * GWEI),
    ).not.toBeNull();
  });
});

describe("outbound lifecycle", () => {
  it("walks intent → signed → broadcast → mined → confirmed, and back to broadcast on a reorg", () => {
    let status = OUTBOUND_LIFECYCLE.transition("intent", "signed").to;
    status = OUTBOUND_LIFECYCLE.transition(status, "sent").to;
    status = OUTBOUND_LIFECYCLE.transition(status, "landed").to;
    expect(OUTBOUND_LIFECYCLE.transition(status, "reorged").to).toBe("broadcast");
    expect(OUTBOUND_LIFECYCLE.transition(status, "confirmed").to).toBe("confirmed");
    expect(OUTBOUND_LIFECYCLE.transition(status, "reverted").to).toBe("reverted");
  });

  it("refuses what the table does not allow: nothing leaves a final status, nothing confirms before it landed", () => {
    for (const final of ["confirmed", "reverted", "expired"] as const)
      expect(() => OUTBOUND_LIFECYCLE.transition(final, "sent")).toThrow(IllegalTransitionError);
    expect(() => OUTBOUND_LIFECYCLE.transition("broadcast", "confirmed")).toThrow(IllegalTransitionError);
    expect(() => OUTBOUND_LIFECYCLE.transition("intent", "sent")).toThrow(IllegalTransitionError);
    expect(() => OUTBOUND_LIFECYCLE.transition("mined", "resigned")).toThrow(IllegalTransitionError);
  });
});
