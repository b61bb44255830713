import { describe, expect, it } from "vitest";
import { IllegalTransitionError } from "@/lib/kernel/define-lifecycle";
import { DEPOSIT_LIFECYCLE } from "@/lib/money-in/deposits/deposit-lifecycle";
import { PAYMENT_LIFECYCLE, type PaymentTrigger } from "@/lib/money-in/payments/payment-lifecycle";
import type { PaymentRow, PaymentStatus } from "@/lib/money-in/payments/payment-row";
import { PaymentBatch } from "@/lib/money-in/payments/update-payment";
import { EVENT_TYPES } from "@/lib/notify/events/event-types";

const payment = (status: PaymentStatus): PaymentRow => ({
  id: "pay_test",
  merchantId: "mer_test",
  mode: "sandbox",
  status,
  chain: "eth",
  amountUnits: 25_000_000n,
  depositAddress: "0x0000000000000000000000000000000000000001",
  description: null,
  metadata: {},
  amountReceivedUnits: 0n,
  amountRefundedUnits: 0n,
  payerAddress: null,
  txHash: null,
  txBlockNumber: null,
  confirmations: 0,
  paymentLinkId: null,
  customerId: null,
  createdAt: new Date(0),
  expiresAt: new Date(1_800_000),
  confirmedAt: null,
  closedAt: null,
  derivationIndex: 1,
  watchKey: null,
  updatedAt: new Date(0),
});

const TRIGGERS = [...new Set(PAYMENT_LIFECYCLE.transitions.map((t) => t.trigger))] as PaymentTrigger[];

describe("the payment lifecycle table", () => {
  it("allows exactly the main path, expiry and the reorg reversals", () => {
    const pairs = PAYMENT_LIFECYCLE.transitions.map((t) => `${t.from} -${t.trigger}-> ${t.to}`).sort();
    expect(pairs).toEqual(
      [
        "awaiting_payment -expiry-> expired",
        "awaiting_payment -funds_detected-> pending",
        "confirming -confirmations_complete-> confirmed",
        "confirming -deposit_orphaned-> awaiting_payment",
        "confirming -deposit_orphaned_after_expiry-> failed",
        "intent_created -created-> awaiting_payment",
        "intent_created -expiry-> expired",
        "pending -deposit_orphaned-> awaiting_payment",
        "pending -deposit_orphaned_after_expiry-> failed",
        "pending -threshold_reached-> confirming",
      ].sort(),
    );
  });

  it("records payment.<to> on every transition, and every payment event has a transition", () => {
    for (const t of PAYMENT_LIFECYCLE.transitions) expect(t.event).toBe(`payment.${t.to}`);
    const emitted = new Set(PAYMENT_LIFECYCLE.transitions.map((t) => t.event));
    expect(EVENT_TYPES.filter((e) => e.startsWith("payment.")).every((e) => emitted.has(e))).toBe(true);
  });

  it("moves money only on confirmation (reserved → available); a reorg's reversal is the deposits' own", () => {
    const moving = PAYMENT_LIFECYCLE.transitions.filter((t) => t.ledger);
    expect(moving.map((t) => `${t.trigger}:${t.ledger!.from}>${t.ledger!.to}`)).toEqual([
      "confirmations_complete:reserved>available",
    ]);
    // Dust (a deposit address's transfer below the chain's minimum) is held in custody, never the merchant's.
    expect(
      DEPOSIT_LIFECYCLE.transitions.map(
        (t) => `${t.from} -${t.trigger}-> ${t.to}: ${t.ledger ? `${t.ledger.from}>${t.ledger.to}` : "nothing"}`,
      ),
    ).toEqual([
      "pending -credit-> credited: reserved>available",
      "pending -orphan-> orphaned: reserved>chain_deposits",
      "credited -reverse-> orphaned: available>chain_deposits",
      "orphaned -mine_again-> pending: chain_deposits>reserved",
      "ignored -orphan-> orphaned: nothing",
      "orphaned -mine_again_as_dust-> ignored: nothing",
    ]);
  });

  it("refuses every trigger from a terminal or confirmed payment", () => {
    for (const status of ["confirmed", "expired", "failed"] as const)
      for (const trigger of TRIGGERS) {
        expect(PAYMENT_LIFECYCLE.allows(status, trigger)).toBe(false);
        expect(() => PAYMENT_LIFECYCLE.transition(status, trigger)).toThrow(IllegalTransitionError);
      }
  });

  it("refuses skipping a step: pending cannot confirm without confirming first, nor expire once paid", () => {
    expect(() => PAYMENT_LIFECYCLE.transition("pending", "confirmations_complete")).toThrow(
      'illegal payment transition: no "confirmations_complete" from "pending"',
    );
    expect(() => PAYMENT_LIFECYCLE.transition("pending", "expiry")).toThrow(IllegalTransitionError);
    expect(() => PAYMENT_LIFECYCLE.transition("awaiting_payment", "threshold_reached")).toThrow(IllegalTransitionError);
  });
});

describe("PaymentBatch", () => {
  it("throws on an illegal transition and queues nothing for it", async () => {
    const batch = new PaymentBatch();
    const confirmed = payment("confirmed");
    expect(() => batch.transition(confirmed, "expiry")).toThrow(IllegalTransitionError);
    expect(batch.current(confirmed)).toBe(confirmed);
  });

  it("follows the status through several transitions of one payment in one batch", () => {
    const batch = new PaymentBatch();
    const paid = batch.transition(payment("awaiting_payment"), "funds_detected", { amountReceivedUnits: 25_000_000n });
    expect(paid.status).toBe("pending");
    expect(batch.transition(paid, "threshold_reached").status).toBe("confirming");
    // The batch applies a trigger to the payment as changed so far, not as it was given.
    expect(batch.transition(paid, "confirmations_complete", {}, 25_000_000n).status).toBe("confirmed");
    expect(() => batch.transition(paid, "threshold_reached")).toThrow(IllegalTransitionError);
  });

  it("refuses a transition that moves money without the amount it moves", () => {
    const batch = new PaymentBatch();
    const confirming = payment("confirming");
    expect(() => batch.transition(confirming, "confirmations_complete")).toThrow("the amount is missing");
    expect(batch.current(confirming)).toBe(confirming);
  });

  it("never changes the status through a field update", () => {
    const batch = new PaymentBatch();
    const updated = batch.update(payment("pending"), { status: "confirmed" } as never);
    expect(updated.status).toBe("pending");
  });
});
