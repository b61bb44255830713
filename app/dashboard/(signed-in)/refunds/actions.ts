"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction } from "@/app/dashboard/dashboard-action";
import { getDb } from "@/lib/platform/db/client";
import { setDashboardRefundPolicy } from "@/lib/dashboard/actions/dashboard-refund-policy";
import {
  cancelDashboardRefund,
  createDashboardRefund,
  type RefundFormFields,
} from "@/lib/dashboard/actions/dashboard-refunds";
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

const REFUNDER = { permission: "refunds:write" } as const;

/** The refund form's fields, given back on a refusal so the form keeps them (React resets a form after its action). */
function refundValues(form: FormData): RefundFormFields & Record<string, string> {
  const text = (name: string) => String(form.get(name) ?? "");
  return {
    payment: text("payment"),
    amount: text("amount"),
    destination: text("destination"),
    to_address: text("to_address"),
    reason: text("reason"),
    require_claim_code: text("require_claim_code"),
  };
}

/** Refunds a payment (refunds:write; step-up in live mode), validated as POST /v1/refunds. */
export const createRefundAction = dashboardAction<RefundActionState>(
  { ...REFUNDER, refused: (refusal, form) => ({ ...refusal, values: refundValues(form) }) },
  async ({ form, actor, user, mode }) => {
    const values = refundValues(form);
    const outcome = await createDashboardRefund(getDb(), actor, user, mode, values);
    if (!outcome.ok) return { error: outcome.error, field: outcome.field, values };
    revalidatePath(`/dashboard/payments/${values.payment}`);
    const r = outcome.refund;
    return {
      done: `Refund ${r.id} created: ${r.status}.`,
      id: r.id,
      claimUrl: outcome.claimUrl,
      claimCode: outcome.claimCode,
    };
  },
);

/** Cancels a refund not yet sent (refunds:write; step-up in live mode). */
export const cancelRefundAction = dashboardAction<ActionOutcome>(
  { ...REFUNDER, refused: ({ error }) => ({ error }) },
  async ({ text, actor, user, mode }) => {
    const refund = await cancelDashboardRefund(getDb(), actor, user, mode, text("refund"));
    revalidatePath("/dashboard/refunds", "layout");
    return { message: `Refund ${refund.id} canceled; its amount is back in available.` };
  },
);

/** Sets the refund policy of the selected mode (refunds:write; step-up in live mode). */
export const setRefundPolicyAction = dashboardAction<RefundActionState>(
  REFUNDER,
  async ({ form, text, actor, user, mode }) => {
    const outcome = await setDashboardRefundPolicy(getDb(), actor, user, mode, {
      overpaidAbove: text("overpaid_above"),
      refundLatePayments: form.get("refund_late_payments") === "on",
    });
    if (!outcome.ok) return { error: outcome.error, field: outcome.field };
    revalidatePath("/dashboard/refunds");
    return { done: "Refund policy saved." };
  },
);

export type ClaimLinkState = Partial<ClaimSecrets> & { error?: string; stepUp?: boolean };

/** Shows an open refund's claim link to a refunder (refunds:write; step-up in live mode), audited. */
export const showClaimLinkAction = dashboardAction<ClaimLinkState>(REFUNDER, ({ text, actor, user, mode }) =>
  revealDashboardRefundClaim(getDb(), { actor, user, mode }, text("refund")),
);

/** A new claim link (and code) for an open refund; the old ones stop working at once. Audited. */
export const regenerateClaimLinkAction = dashboardAction<ClaimLinkState>(
  REFUNDER,
  ({ form, text, actor, user, mode }) =>
    regenerateDashboardRefundClaim(
      getDb(),
      { actor, user, mode },
      text("refund"),
      form.get("require_claim_code") === "on",
    ),
);
