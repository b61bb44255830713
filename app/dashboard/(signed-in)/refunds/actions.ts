"use server";

import { revalidatePath } from "next/cache";
import { refusalOf } from "@/lib/identity/auth/action-actor";
import { actorOf, requireActionUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { getDb } from "@/lib/platform/db/client";
import { setDashboardRefundPolicy } from "@/lib/dashboard/actions/dashboard-refund-policy";
import { cancelDashboardRefund, createDashboardRefund } from "@/lib/dashboard/actions/dashboard-refunds";
import {
  type ClaimSecrets,
  regenerateDashboardRefundClaim,
  revealDashboardRefundClaim,
} from "@/lib/dashboard/actions/dashboard-refund-claims";
import type { ActionOutcome } from "@/lib/dashboard/actions/payment-actions";

export type RefundActionState = {
  error?: string;
  field?: string | null;
  stepUp?: boolean;
  done?: string;
  id?: string;
  claimUrl?: string | null;
  claimCode?: string | null;
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
    require_claim_code: text(form, "require_claim_code"),
  };
  try {
    const user = await requireActionUser("refunds:write");
    const outcome = await createDashboardRefund(getDb(), await actorOf(user), user, await dashboardMode(), values);
    if (!outcome.ok) return { error: outcome.error, field: outcome.field, values };
    revalidatePath(`/dashboard/payments/${values.payment}`);
    const r = outcome.refund;
    return {
      done: `Refund ${r.id} created: ${r.status}.`,
      id: r.id,
      claimUrl: outcome.claimUrl,
      claimCode: outcome.claimCode,
    };
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

export type ClaimLinkState = Partial<ClaimSecrets> & { error?: string; stepUp?: boolean };

/** Shows an open refund's claim link to a refunder (refunds:write; step-up in live mode), audited. */
export async function showClaimLinkAction(_prev: ClaimLinkState, form: FormData): Promise<ClaimLinkState> {
  try {
    const user = await requireActionUser("refunds:write");
    const who = { actor: await actorOf(user), user, mode: await dashboardMode() };
    return await revealDashboardRefundClaim(getDb(), who, text(form, "refund"));
  } catch (err) {
    return refusalOf(err);
  }
}

/** A new claim link (and code) for an open refund; the old ones stop working at once. Audited. */
export async function regenerateClaimLinkAction(_prev: ClaimLinkState, form: FormData): Promise<ClaimLinkState> {
  try {
    const user = await requireActionUser("refunds:write");
    const who = { actor: await actorOf(user), user, mode: await dashboardMode() };
    const requireCode = form.get("require_claim_code") === "on";
    return await regenerateDashboardRefundClaim(getDb(), who, text(form, "refund"), requireCode);
  } catch (err) {
    return refusalOf(err);
  }
}
