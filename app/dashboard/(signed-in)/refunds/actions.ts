"use server";

import { revalidatePath } from "next/cache";
import { refusalOf } from "@/lib/identity/auth/action-actor";
import { actorOf, requireActionUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { getDb } from "@/lib/platform/db/client";
import { setDashboardRefundPolicy } from "@/lib/read-models/dashboard-refund-policy";
import { cancelDashboardRefund, createDashboardRefund } from "@/lib/read-models/dashboard-refunds";
import type { ActionOutcome } from "@/lib/read-models/payment-actions";

export type RefundActionState = {
  error?: string;
  field?: string | null;
  stepUp?: boolean;
  done?: string;
  id?: string;
  claimUrl?: string | null;
  values?: Record<string, string>;
};

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

/** Refunds a payment (refunds:write; step-up in live mode), validated as POST /v1/refunds. */
export async function createRefundAction(_prev: RefundActionState, form: FormData): Promise<RefundActionState> {
  const values = {
    payment: text(form, "payment"),
    amount: text(form, "amount"),
    destination: text(form, "destination"),
    to_address: text(form, "to_address"),
    reason: text(form, "reason"),
  };
  try {
    const user = await requireActionUser("refunds:write");
    const outcome = await createDashboardRefund(getDb(), await actorOf(user), user, await dashboardMode(), values);
    if (!outcome.ok) return { error: outcome.error, field: outcome.field, values };
    revalidatePath(`/dashboard/payments/${values.payment}`);
    const r = outcome.refund;
    return { done: `Refund ${r.id} created: ${r.status}.`, id: r.id, claimUrl: r.claim_url };
  } catch (err) {
    return { ...refusalOf(err), values };
  }
}

/** Cancels a refund not yet sent (refunds:write; step-up in live mode). */
export async function cancelRefundAction(_prev: ActionOutcome, form: FormData): Promise<ActionOutcome> {
  try {
    const user = await requireActionUser("refunds:write");
    const id = text(form, "refund");
    const refund = await cancelDashboardRefund(getDb(), await actorOf(user), user, await dashboardMode(), id);
    revalidatePath("/dashboard/refunds", "layout");
    return { message: `Refund ${refund.id} canceled; its amount is back in available.` };
  } catch (err) {
    return { error: refusalOf(err).error };
  }
}

/** Sets the refund policy of the selected mode (refunds:write; step-up in live mode). */
export async function setRefundPolicyAction(_prev: RefundActionState, form: FormData): Promise<RefundActionState> {
  try {
    const user = await requireActionUser("refunds:write");
    const outcome = await setDashboardRefundPolicy(getDb(), await actorOf(user), user, await dashboardMode(), {
      overpaidAbove: text(form, "overpaid_above"),
      refundLatePayments: form.get("refund_late_payments") === "on",
    });
    if (!outcome.ok) return { error: outcome.error, field: outcome.field };
    revalidatePath("/dashboard/refunds");
    return { done: "Refund policy saved." };
  } catch (err) {
    return refusalOf(err);
  }
}
