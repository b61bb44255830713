import { formatAmount } from "@/lib/kernel/amount";
import type { Mode } from "@/lib/kernel/mode";
import { type Actor, recordAudit } from "@/lib/identity/users/audit";
import type { SessionUser } from "@/lib/identity/users/sessions";
import { requireStepUp } from "@/lib/identity/users/step-up";
import { getRefundPolicy, parseOverpaidAbove, setRefundPolicy } from "@/lib/money-out/refunds/refund-policy";
import { type Db, inTransaction } from "@/lib/platform/db/client";

export type RefundPolicyOutcome = { ok: true } | { ok: false; error: string; field: "overpaid_above" };

/**
 * Sets the merchant's refund policy from the dashboard (docs/REFUNDS.md#policy), as `refunds policy set` does:
 * blank turns overpayment refunds off. It opens refunds by itself, so it asks what refunding asks (a second
 * factor within the step-up window in live mode), and the change is audited with its before and after.
 */
export async function setDashboardRefundPolicy(
  db: Db,
  actor: Actor,
  user: Pick<SessionUser, "secondFactorAt">,
  mode: Mode,
  input: { overpaidAbove: string; refundLatePayments: boolean },
): Promise<RefundPolicyOutcome> {
  if (mode === "live") requireStepUp(user);
  const parsed = parseOverpaidAbove(input.overpaidAbove, "");
  if (!parsed.ok)
    return { ok: false, error: `Overpaid above: ${parsed.message}, or blank for never`, field: "overpaid_above" };
  return inTransaction(db, async (tx) => {
    const before = await getRefundPolicy(tx, actor.merchantId, mode);
    const after = await setRefundPolicy(tx, {
      ...before,
      overpaidAboveUnits: parsed.units,
      refundLatePayments: input.refundLatePayments,
    });
    const shown = (units: bigint | null) => (units === null ? null : formatAmount(units));
    await recordAudit(tx, actor, {
      action: "refund_policy.updated",
      target: `${actor.merchantId}:${mode}`,
      details: {
        mode,
        overpaid_above: [shown(before.overpaidAboveUnits), shown(after.overpaidAboveUnits)],
        refund_late_payments: [before.refundLatePayments, after.refundLatePayments],
      },
    });
    return { ok: true };
  });
}
