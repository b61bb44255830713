import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/kernel/domain-error";
import { createDashboardPayout, type PayoutFormFields } from "@/lib/dashboard/actions/create-dashboard-payout";
import { loadPayoutDetail } from "@/lib/dashboard/views/load-payout-detail";
import { reviewDashboardPayout, setDashboardPolicy } from "@/lib/dashboard/actions/review-dashboard-payout";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { executePayout } from "@/lib/money-out/payouts/execute-payout";
import { getPayoutPolicy } from "@/lib/money-out/payouts/payout-policy";
import { PayoutReviewError } from "@/lib/money-out/payouts/review-payout";
import { StepUpRequiredError } from "@/lib/identity/users/step-up";
import { api, newMerchant } from "../helpers/api";

// The dashboard's payout functions: the API's validation and messages, step-up, review with audit, isolation.
const EVM_TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const steppedUp = { secondFactorAt: new Date() };
const stale = { secondFactorAt: null };
// Payouts are created by one admin and reviewed by another (two people: tests/dashboard/payout-two-person.test.ts).
const actorOf = (merchantId: string, userId = "usr_reviewer") => ({
  merchantId,
  userId,
  ip: "10.0.0.1",
  userAgent: "vitest",
});
const form = (over: Partial<PayoutFormFields> = {}): PayoutFormFields => ({
  chain: "polygon",
  to_address: EVM_TO,
  amount: "30.000000",
  description: "",
  metadata: "",
  ...over,
});
const available = async (key: string) =>
  (await api("GET", "/v1/balances", { key })).json.data.find((b: { chain: string }) => b.chain === "polygon").available;
const audit = async (merchantId: string) =>
  (
    await query<{ action: string }>(
      getDb(),
      "select action from audit_log where merchant_id = $1 order by created_at",
      [merchantId],
    )
  ).map((r) => r.action);

/** A merchant with 100 USDT on polygon and a policy that holds payouts above 10 USDT. */
async function fundedMerchant() {
  const m = await newMerchant();
  await adjustBalance(getDb(), {
    merchantId: m.id,
    mode: "sandbox",
    chain: "polygon",
    amount: 100_000_000n,
    reason: "test",
  });
  expect(
    await setDashboardPolicy(getDb(), actorOf(m.id), steppedUp, "sandbox", {
      reviewAbove: "10.000000",
      reviewNewDestinations: false,
    }),
  ).toEqual({ ok: true });
  return m;
}

/** Created from the dashboard, then taken forward by the executor as the worker would: held for review. */
async function heldPayout(m: { id: string }, amount = "30.000000") {
  const created = await createDashboardPayout(
    getDb(),
    actorOf(m.id, "usr_requester"),
    steppedUp,
    "sandbox",
    form({ amount }),
  );
  if (!created.ok) throw new Error(created.error);
  await executePayout(getDb(), created.payout.id);
  return created.payout.id;
}

describe("dashboard payouts", () => {
  it("refuses without step-up, and shows the API's own messages next to their field", async () => {
    const m = await fundedMerchant();
    await expect(createDashboardPayout(getDb(), actorOf(m.id), stale, "sandbox", form())).rejects.toBeInstanceOf(
      StepUpRequiredError,
    );
    const bad = await createDashboardPayout(getDb(), actorOf(m.id), steppedUp, "sandbox", form({ amount: "30" }));
    expect(bad).toEqual({ ok: false, field: "amount", error: expect.stringContaining("exactly 6 decimals") });
    const viaApi = await api("POST", "/v1/payouts", {
      key: m.sandboxKey,
      body: { chain: "polygon", to_address: EVM_TO, amount: "30" },
    });
    expect(bad.ok === false && bad.error).toBe(viaApi.json.error.message);
    const badTo = await createDashboardPayout(
      getDb(),
      actorOf(m.id),
      steppedUp,
      "sandbox",
      form({ to_address: "0x123" }),
    );
    expect(badTo).toMatchObject({ ok: false, field: "to_address" });
    const tooMuch = await createDashboardPayout(
      getDb(),
      actorOf(m.id),
      steppedUp,
      "sandbox",
      form({ amount: "500.000000" }),
    );
    expect(tooMuch).toMatchObject({
      ok: false,
      field: "amount",
      error: expect.stringContaining("Insufficient available balance"),
    });
    const meta = await createDashboardPayout(getDb(), actorOf(m.id), steppedUp, "sandbox", form({ metadata: "{oops" }));
    expect(meta).toMatchObject({ ok: false, field: "metadata" });
    expect(await available(m.sandboxKey)).toBe("100.000000");
  });

  it(
    "approve and reject a held payout with step-up, audited; " + "a replay is refused; reject restores the balance",
    async () => {
      const m = await fundedMerchant();
      const [a, r] = [await heldPayout(m), await heldPayout(m, "20.000000")];
      const owner = { merchantId: m.id, mode: "sandbox" as const };
      expect((await loadPayoutDetail(getDb(), owner, a)).held).toContain("above the review limit of 10.000000 USDT");
      expect(await available(m.sandboxKey)).toBe("50.000000");
      await expect(
        reviewDashboardPayout(getDb(), actorOf(m.id), stale, "sandbox", a, "approve"),
      ).rejects.toBeInstanceOf(StepUpRequiredError);
      expect((await reviewDashboardPayout(getDb(), actorOf(m.id), steppedUp, "sandbox", a, "approve")).status).toBe(
        "pending",
      );
      await expect(
        reviewDashboardPayout(getDb(), actorOf(m.id), steppedUp, "sandbox", a, "approve"),
      ).rejects.toBeInstanceOf(PayoutReviewError);
      const rejected = await reviewDashboardPayout(getDb(), actorOf(m.id), steppedUp, "sandbox", r, "reject");
      expect(rejected).toMatchObject({ status: "failed", failureCode: "rejected" });
      expect(await available(m.sandboxKey)).toBe("70.000000");
      const detail = await loadPayoutDetail(getDb(), owner, r);
      expect(detail.failure).toBe("An operator rejected the payout under review.");
      expect(detail.timeline.map((e) => e.what)).toEqual(["Created", "rejected by the operator", "payout.failed"]);
      expect(await audit(m.id)).toEqual([
        "payout_policy.updated",
        "payout.created",
        "payout.created",
        "payout.approved",
        "payout.rejected",
      ]);
    },
  );

  it("another merchant's payout, or the other mode's, is not found", async () => {
    const m = await fundedMerchant();
    const id = await heldPayout(m);
    const other = await newMerchant();
    await expect(
      reviewDashboardPayout(getDb(), actorOf(other.id), steppedUp, "sandbox", id, "approve"),
    ).rejects.toMatchObject({ type: "not_found" });
    await expect(reviewDashboardPayout(getDb(), actorOf(m.id), steppedUp, "live", id, "reject")).rejects.toBeInstanceOf(
      DomainError,
    );
    await expect(loadPayoutDetail(getDb(), { merchantId: m.id, mode: "live" }, id)).rejects.toMatchObject({
      type: "not_found",
    });
    expect((await loadPayoutDetail(getDb(), { merchantId: m.id, mode: "sandbox" }, id)).payout.status).toBe(
      "review_required",
    );
  });

  it("the policy: step-up, the CLI's amount rules, blank for no limit, audited", async () => {
    const m = await newMerchant();
    const actor = actorOf(m.id);
    const set = (reviewAbove: string, user: { secondFactorAt: Date | null } = steppedUp) =>
      setDashboardPolicy(getDb(), actor, user, "live", { reviewAbove, reviewNewDestinations: true });
    await expect(set("5.000000", stale)).rejects.toBeInstanceOf(StepUpRequiredError);
    expect(await set("5")).toMatchObject({
      ok: false,
      field: "review_above",
      error: expect.stringContaining("exactly 6 decimals"),
    });
    expect(await set("5.000000")).toEqual({ ok: true });
    expect(await getPayoutPolicy(getDb(), m.id, "live")).toMatchObject({
      reviewAboveUnits: 5_000_000n,
      reviewNewDestinations: true,
    });
    expect(await getPayoutPolicy(getDb(), m.id, "sandbox")).toMatchObject({ reviewAboveUnits: null });
    expect(await set("")).toEqual({ ok: true });
    expect((await getPayoutPolicy(getDb(), m.id, "live")).reviewAboveUnits).toBeNull();
    expect(await audit(m.id)).toEqual(["payout_policy.updated", "payout_policy.updated"]);
  });
});
