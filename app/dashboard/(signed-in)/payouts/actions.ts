"use server";

import { revalidatePath } from "next/cache";
import { type ActionContext, dashboardAction } from "@/app/dashboard/dashboard-action";
import { createDashboardPayout } from "@/lib/dashboard/actions/create-dashboard-payout";
import { reviewDashboardPayout, setDashboardPolicy } from "@/lib/dashboard/actions/review-dashboard-payout";
import { SelfApprovalError } from "@/lib/dashboard/actions/second-approver";
import { getDb } from "@/lib/platform/db/client";
import { PayoutReviewError } from "@/lib/money-out/payouts/review-payout";
import type { Permission } from "@/lib/identity/users/roles";

export type PayoutActionState = {
  error?: string;
  field?: string | null;
  stepUp?: boolean;
  done?: string;
  id?: string;
  /** What was typed, given back on a refusal so the form keeps it (React resets a form after its action). */
  values?: Record<string, string>;
};

/** A payouts action; the payouts pages are shown again after it, unless `revalidate` is false. */
const payoutAction = (
  permission: Permission,
  run: (ctx: ActionContext) => Promise<PayoutActionState>,
  revalidate = true,
) =>
  dashboardAction<PayoutActionState>({ permission, expected: [PayoutReviewError, SelfApprovalError] }, async (ctx) => {
    const state = await run(ctx);
    if (revalidate) revalidatePath("/dashboard/payouts", "layout");
    return state;
  });

/** Creates a payout (payouts:write, step-up), validated as POST /v1/payouts; errors name their field. */
export const createPayoutAction = payoutAction("payouts:write", async ({ text, actor, user, mode }) => {
  const values = {
    chain: text("chain"),
    to_address: text("to_address"),
    amount: text("amount"),
    description: text("description"),
    metadata: text("metadata"),
  };
  const outcome = await createDashboardPayout(getDb(), actor, user, mode, values);
  if (!outcome.ok) return { error: outcome.error, field: outcome.field, values };
  return { done: `Payout ${outcome.payout.id} created: ${outcome.payout.status}.`, id: outcome.payout.id };
});

/**
 * Approve or Reject a payout under review (payouts:approve, step-up; not your own: two people). Not revalidated:
 * the payout would leave the queue at once, and the outcome with it. The row says it instead.
 */
export const reviewPayoutAction = payoutAction(
  "payouts:approve",
  async ({ text, actor, user, mode }) => {
    const decision = text("decision") === "approve" ? "approve" : "reject";
    const id = text("payout");
    const row = await reviewDashboardPayout(getDb(), actor, user, mode, id, decision);
    return { done: `${id} ${decision === "approve" ? "approved" : "rejected"}: ${row.status}.` };
  },
  false,
);

/** Sets the payout policy of the selected mode (payouts:approve, i.e. owner and admin; step-up). */
export const setPolicyAction = payoutAction("payouts:approve", async ({ form, text, actor, user, mode }) => {
  const outcome = await setDashboardPolicy(getDb(), actor, user, mode, {
    reviewAbove: text("review_above"),
    reviewNewDestinations: form.get("review_new_destinations") === "on",
    allowSelfApproval: form.get("allow_self_approval") === "on",
  });
  return outcome.ok ? { done: "Policy saved." } : { error: outcome.error, field: outcome.field };
});
