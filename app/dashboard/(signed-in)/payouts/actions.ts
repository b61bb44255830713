"use server";

import { revalidatePath } from "next/cache";
import { refusalOf } from "@/lib/identity/auth/action-actor";
import { actorOf, requireActionUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { createDashboardPayout } from "@/lib/dashboard/actions/create-dashboard-payout";
import { reviewDashboardPayout, setDashboardPolicy } from "@/lib/dashboard/actions/review-dashboard-payout";
import { SelfApprovalError } from "@/lib/dashboard/actions/second-approver";
import { getDb } from "@/lib/platform/db/client";
import { PayoutReviewError } from "@/lib/money-out/payouts/review-payout";
import type { Permission } from "@/lib/identity/users/roles";
import type { SessionUser } from "@/lib/identity/users/sessions";

export type PayoutActionState = {
  error?: string;
  field?: string | null;
  stepUp?: boolean;
  done?: string;
  id?: string;
  /** What was typed, given back on a refusal so the form keeps it (React resets a form after its action). */
  values?: Record<string, string>;
};

async function guarded(
  permission: Permission,
  run: (user: SessionUser) => Promise<PayoutActionState>,
  revalidate = true,
): Promise<PayoutActionState> {
  try {
    const state = await run(await requireActionUser(permission));
    if (revalidate) revalidatePath("/dashboard/payouts", "layout");
    return state;
  } catch (err) {
    return refusalOf(err, [PayoutReviewError, SelfApprovalError]);
  }
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

/** Creates a payout (payouts:write, step-up), validated as POST /v1/payouts; errors name their field. */
export async function createPayoutAction(_prev: PayoutActionState, form: FormData): Promise<PayoutActionState> {
  return guarded("payouts:write", async (user) => {
    const values = {
      chain: text(form, "chain"),
      to_address: text(form, "to_address"),
      amount: text(form, "amount"),
      description: text(form, "description"),
      metadata: text(form, "metadata"),
    };
    const outcome = await createDashboardPayout(getDb(), await actorOf(user), user, await dashboardMode(), values);
    if (!outcome.ok) return { error: outcome.error, field: outcome.field, values };
    return { done: `Payout ${outcome.payout.id} created: ${outcome.payout.status}.`, id: outcome.payout.id };
  });
}

/** Approve or Reject a payout under review (payouts:approve, step-up; not your own: two people). */
export async function reviewPayoutAction(_prev: PayoutActionState, form: FormData): Promise<PayoutActionState> {
  return guarded(
    "payouts:approve",
    async (user) => {
      const decision = text(form, "decision") === "approve" ? "approve" : "reject";
      const id = text(form, "payout");
      const row = await reviewDashboardPayout(getDb(), await actorOf(user), user, await dashboardMode(), id, decision);
      return { done: `${id} ${decision === "approve" ? "approved" : "rejected"}: ${row.status}.` };
      // Not revalidated: the payout would leave the queue at once, and the outcome with it. The row says it instead.
    },
    false,
  );
}

/** Sets the payout policy of the selected mode (payouts:approve, i.e. owner and admin; step-up). */
export async function setPolicyAction(_prev: PayoutActionState, form: FormData): Promise<PayoutActionState> {
  return guarded("payouts:approve", async (user) => {
    const outcome = await setDashboardPolicy(getDb(), await actorOf(user), user, await dashboardMode(), {
      reviewAbove: text(form, "review_above"),
      reviewNewDestinations: form.get("review_new_destinations") === "on",
      allowSelfApproval: form.get("allow_self_approval") === "on",
    });
    return outcome.ok ? { done: "Policy saved." } : { error: outcome.error, field: outcome.field };
  });
}
