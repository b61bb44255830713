import { describe, expect, it } from "vitest";
import {
  afterOrphanedDeposit,
  completesPayment,
  completingDeposit,
  confirmationsAt,
  expiredBy,
  settlementTriggers,
} from "@/lib/money-in/payments/payment-rules";

const EXPIRES = new Date("2026-01-01T00:30:00Z");
const awaiting = { status: "awaiting_payment" as const, expiresAt: EXPIRES, amountUnits: 25_000_000n };

describe("payment rules", () => {
  it("counts the transfer's own block as its first confirmation", () => {
    expect(confirmationsAt(100, 100)).toBe(1);
    expect(confirmationsAt(100, 111)).toBe(12);
    expect(confirmationsAt(100, 99)).toBe(0); // the head went back below the transfer (reorg)
  });

  it("expires a payment awaiting payment at expires_at on chain time, not before, and never once paid", () => {
    expect(expiredBy(awaiting, EXPIRES.getTime() - 1)).toBe(false);
    expect(expiredBy(awaiting, EXPIRES.getTime())).toBe(true);
    expect(expiredBy({ ...awaiting, status: "pending" }, EXPIRES.getTime() + 1)).toBe(false);
  });

  it("completes at the full amount (overpayment included), not below, and only while awaiting payment", () => {
    expect(completesPayment(awaiting, 24_999_999n)).toBe(false);
    expect(completesPayment(awaiting, 25_000_000n)).toBe(true);
    expect(completesPayment(awaiting, 30_000_000n)).toBe(true);
    expect(completesPayment({ ...awaiting, status: "expired" }, 30_000_000n)).toBe(false);
  });

  it("finds the deposit at which the running total reaches the amount", () => {
    const deposits = [
      { amountUnits: 10n, tx: "a" },
      { amountUnits: 10n, tx: "b" },
      { amountUnits: 10n, tx: "c" },
    ];
    expect(completingDeposit(deposits, 20n)?.tx).toBe("b");
    expect(completingDeposit(deposits, 21n)?.tx).toBe("c");
    expect(completingDeposit(deposits, 31n)).toBeNull();
    expect(completingDeposit([], 1n)).toBeNull();
  });

  it("settles in order: confirming at the threshold, confirmed at the required depth, both in one scan", () => {
    const depth = { threshold: 2, required: 4 };
    expect(settlementTriggers("pending", 1, depth)).toEqual([]);
    expect(settlementTriggers("pending", 2, depth)).toEqual(["threshold_reached"]);
    expect(settlementTriggers("pending", 9, depth)).toEqual(["threshold_reached", "confirmations_complete"]);
    expect(settlementTriggers("confirming", 3, depth)).toEqual([]);
    expect(settlementTriggers("confirming", 4, depth)).toEqual(["confirmations_complete"]);
    expect(settlementTriggers("confirmed", 40, depth)).toEqual([]);
    // A depth below the threshold still passes through confirming.
    expect(settlementTriggers("pending", 1, { threshold: 2, required: 1 })).toEqual([
      "threshold_reached",
      "confirmations_complete",
    ]);
  });

  it("after a reorg: unchanged while still complete, reopened before expiry, failed after it", () => {
    const pending = { status: "pending" as const, expiresAt: EXPIRES };
    expect(afterOrphanedDeposit(pending, true, EXPIRES.getTime() - 1)).toBeNull();
    expect(afterOrphanedDeposit(pending, false, EXPIRES.getTime() - 1)).toBe("deposit_orphaned");
    expect(afterOrphanedDeposit({ ...pending, status: "confirming" }, false, EXPIRES.getTime())).toBe(
      "deposit_orphaned_after_expiry",
    );
    expect(afterOrphanedDeposit({ ...pending, status: "expired" }, false, 0)).toBeNull();
  });
});
