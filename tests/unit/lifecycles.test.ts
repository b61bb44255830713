import { describe, expect, it } from "vitest";
import { defineLifecycle, IllegalTransitionError } from "@/lib/kernel/define-lifecycle";
import { DEPOSIT_LIFECYCLE } from "@/lib/money-in/deposits/deposit-lifecycle";
import { CANDIDATE_LIFECYCLE } from "@/lib/money-out/outbound/candidate-lifecycle";
import { CANDIDATE_STATUSES } from "@/lib/money-out/outbound/outbound-types";
import { DELIVERY_LIFECYCLE } from "@/lib/notify/webhooks/delivery-lifecycle";

describe("the deposit, candidate and delivery lifecycles", () => {
  it("a deposit comes back from orphaned only by being mined again, and a credited one leaves only by a reorg", () => {
    expect(DEPOSIT_LIFECYCLE.transition("orphaned", "mine_again").to).toBe("pending");
    expect(() => DEPOSIT_LIFECYCLE.transition("orphaned", "credit")).toThrow(IllegalTransitionError);
    expect(() => DEPOSIT_LIFECYCLE.transition("credited", "credit")).toThrow(IllegalTransitionError);
    expect(() => DEPOSIT_LIFECYCLE.transition("credited", "orphan")).toThrow(IllegalTransitionError);
    expect(DEPOSIT_LIFECYCLE.transition("credited", "reverse").to).toBe("orphaned");
  });

  it("a candidate knows every status of its table, and none leaves a final one", () => {
    expect([...CANDIDATE_LIFECYCLE.statuses].sort()).toEqual([...CANDIDATE_STATUSES].sort());
    for (const status of CANDIDATE_LIFECYCLE.terminal)
      for (const trigger of ["sent", "landed", "moved", "reorged", "confirmed", "superseded", "expired"] as const)
        expect(CANDIDATE_LIFECYCLE.allows(status, trigger)).toBe(false);
    // Only a landed candidate confirms: one merely sent cannot.
    expect(() => CANDIDATE_LIFECYCLE.transition("broadcast", "confirmed")).toThrow(IllegalTransitionError);
    expect(CANDIDATE_LIFECYCLE.transition("mined", "reorged").to).toBe("broadcast");
  });

  it("closes open candidates in bulk from exactly the statuses the table allows", () => {
    expect(CANDIDATE_LIFECYCLE.bulk("expired")).toEqual({ from: ["signed", "broadcast"], to: "expired" });
    expect(CANDIDATE_LIFECYCLE.bulk("superseded")).toEqual({ from: ["signed", "broadcast"], to: "replaced" });
  });

  it("a delivered webhook stays delivered; one that gave up may still be delivered by a replay", () => {
    expect(DELIVERY_LIFECYCLE.bulk("gave_up")).toEqual({ from: ["pending"], to: "failed" });
    expect(DELIVERY_LIFECYCLE.bulk("delivered")).toEqual({ from: ["pending", "failed"], to: "succeeded" });
    expect(() => DELIVERY_LIFECYCLE.transition("succeeded", "gave_up")).toThrow(IllegalTransitionError);
    // resend_failed takes back only what gave up: never a delivered or still pending one.
    expect(DELIVERY_LIFECYCLE.bulk("resent")).toEqual({ from: ["failed"], to: "pending" });
  });

  it("refuses a bulk move whose trigger has no transition or leads to two statuses", () => {
    const split = defineLifecycle<"a" | "b" | "c", "go" | "stop", null>({
      resource: "thing",
      statuses: ["a", "b", "c"],
      terminal: [],
      transitions: [
        { from: "a", trigger: "go", to: "b", event: null, ledger: null },
        { from: "b", trigger: "go", to: "c", event: null, ledger: null },
      ],
    });
    expect(() => split.bulk("go")).toThrow('"go" does not lead to one status');
    expect(() => split.bulk("stop")).toThrow('"stop" does not lead to one status');
  });
});
