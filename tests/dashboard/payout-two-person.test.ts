import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createDashboardKey } from "@/lib/dashboard/actions/api-keys";
import { createDashboardPayout } from "@/lib/dashboard/actions/create-dashboard-payout";
import {
  reviewDashboardPayout,
  SELF_APPROVAL_REFUSED,
  setDashboardPolicy,
} from "@/lib/dashboard/actions/review-dashboard-payout";
import { SelfApprovalError } from "@/lib/dashboard/actions/second-approver";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { executePayout } from "@/lib/money-out/payouts/execute-payout";
import { createUser } from "@/lib/identity/users/create-user";
import type { Role } from "@/lib/identity/users/roles";
import { api, newMerchant } from "../helpers/api";

// Review above an amount is a two-person control: whoever asked for a payout (from the dashboard, or with an
// API key they created) cannot approve it; someone else must. Self-approval is a policy option for a team
// with a single approver only.
const EVM_TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const steppedUp = { secondFactorAt: new Date() };

async function member(merchantId: string, role: Role) {
  const email = `${role}.${randomBytes(4).toString("hex")}@shop.test`;
  const { user } = await createUser(getDb(), { merchantId, email, role });
  return { merchantId, userId: user.id, ip: "10.0.0.1", userAgent: "vitest" };
}
const statusOf = async (id: string) =>
  (await query<{ status: string }>(getDb(), "select status from payouts where id = $1", [id]))[0]!.status;
const approvals = async (merchantId: string) =>
  (await query(getDb(), "select 1 from audit_log where merchant_id = $1 and action = 'payout.approved'", [merchantId]))
    .length;

/** A merchant with 100 USDT on polygon whose policy holds payouts above 10 USDT, set by `by`. */
async function fundedMerchant() {
  const m = await newMerchant();
  await adjustBalance(getDb(), {
    merchantId: m.id,
    mode: "sandbox",
    chain: "polygon",
    amount: 100_000_000n,
    reason: "t",
  });
  return m;
}
async function holdAbove(by: Awaited<ReturnType<typeof member>>, allowSelfApproval = false) {
  return setDashboardPolicy(getDb(), by, steppedUp, "sandbox", {
    reviewAbove: "10.000000",
    reviewNewDestinations: false,
    allowSelfApproval,
  });
}
async function heldFromDashboard(by: Awaited<ReturnType<typeof member>>) {
  const fields = { chain: "polygon", to_address: EVM_TO, amount: "30.000000", description: "", metadata: "" };
  const created = await createDashboardPayout(getDb(), by, steppedUp, "sandbox", fields);
  if (!created.ok) throw new Error(created.error);
  await executePayout(getDb(), created.payout.id);
  expect(await statusOf(created.payout.id)).toBe("review_required");
  return created.payout.id;
}
const approve = (by: Awaited<ReturnType<typeof member>>, id: string) =>
  reviewDashboardPayout(getDb(), by, steppedUp, "sandbox", id, "approve");

describe("two people for reviewed payouts", () => {
  it("the admin who created a payout cannot approve it; another admin can; the creator may reject", async () => {
    const m = await fundedMerchant();
    const [owner, adminA, adminB] = [
      await member(m.id, "owner"),
      await member(m.id, "admin"),
      await member(m.id, "admin"),
    ];
    expect(await holdAbove(owner)).toEqual({ ok: true });
    const id = await heldFromDashboard(adminA);
    await expect(approve(adminA, id)).rejects.toThrow(
      new SelfApprovalError("You asked for this payout: another owner or admin must approve it."),
    );
    expect(await statusOf(id)).toBe("review_required");
    expect(await approvals(m.id)).toBe(0);
    expect((await approve(adminB, id)).status).toBe("pending");
    expect(await approvals(m.id)).toBe(1);

    const mine = await heldFromDashboard(adminA);
    expect((await reviewDashboardPayout(getDb(), adminA, steppedUp, "sandbox", mine, "reject")).status).toBe("failed");
  });

  it("a payout made with an API key counts as its creator's: they cannot approve it", async () => {
    const m = await fundedMerchant();
    const [owner, admin] = [await member(m.id, "owner"), await member(m.id, "admin")];
    expect(await holdAbove(owner)).toEqual({ ok: true });
    const key = await createDashboardKey(getDb(), admin, { ...steppedUp, role: "admin" }, "sandbox");
    const made = await api("POST", "/v1/payouts", {
      key: key.secret,
      body: { chain: "polygon", to_address: EVM_TO, amount: "30.000000" },
    });
    expect(made.status, made.text).toBe(200);
    await executePayout(getDb(), made.json.id);
    expect(await statusOf(made.json.id)).toBe("review_required");
    await expect(approve(admin, made.json.id)).rejects.toBeInstanceOf(SelfApprovalError);
    expect(await statusOf(made.json.id)).toBe("review_required");
    expect((await approve(owner, made.json.id)).status).toBe("pending");
  });

  it("self-approval: only for a single-approver team, and refused again once a second approver joins", async () => {
    const m = await fundedMerchant();
    const owner = await member(m.id, "owner");
    await member(m.id, "developer"); // not an approver: the team still has one
    expect(await holdAbove(owner, true)).toEqual({ ok: true });
    const first = await heldFromDashboard(owner);
    expect((await approve(owner, first)).status).toBe("pending");

    const second = await heldFromDashboard(owner);
    await member(m.id, "admin");
    await expect(approve(owner, second)).rejects.toBeInstanceOf(SelfApprovalError);
    expect(await statusOf(second)).toBe("review_required");
    expect(await holdAbove(owner, true)).toEqual({
      ok: false,
      error: SELF_APPROVAL_REFUSED,
      field: "allow_self_approval",
    });
  });
});
