import { inTransaction, type Db } from "@/lib/platform/db/client";
import { formatAmount, parseAmount } from "@/lib/kernel/amount";
import type { Mode } from "@/lib/kernel/mode";
import { getPayout } from "@/lib/money-out/payouts/payout-kind";
import { getPayoutPolicy, setPayoutPolicy } from "@/lib/money-out/payouts/payout-policy";
import { approvePayout, rejectPayout } from "@/lib/money-out/payouts/review-payout";
import { approverCount, requireSecondApprover } from "./second-approver";
import { type Actor, recordAudit } from "@/lib/identity/users/audit";
import type { SessionUser } from "@/lib/identity/users/sessions";
import { requireStepUp } from "@/lib/identity/users/step-up";

type Stepper = Pick<SessionUser, "secondFactorAt">;

/**
 * Approve or reject a payout held for review (step-up), with the functions the CLI uses, audited in the same
 * transaction. Another merchant's or mode's payout is not found (DomainError not_found); one no longer under
 * review (a replayed click) is refused with PayoutReviewError; approval by the person who asked for it, with
 * SelfApprovalError (two people; rejecting your own is fine).
 */
export async function reviewDashboardPayout(
  db: Db,
  actor: Actor & { userId: string },
  user: Stepper,
  mode: Mode,
  id: string,
  decision: "approve" | "reject",
) {
  requireStepUp(user);
  return inTransaction(db, async (tx) => {
    const payout = await getPayout(tx, { merchantId: actor.merchantId, mode }, id);
    if (decision === "approve") {
      const policy = await getPayoutPolicy(tx, actor.merchantId, mode);
      await requireSecondApprover(tx, payout, actor.userId, policy.allowSelfApproval);
    }
    const row = decision === "approve" ? await approvePayout(tx, id) : await rejectPayout(tx, id);
    await recordAudit(tx, actor, {
      action: decision === "approve" ? "payout.approved" : "payout.rejected",
      target: id,
      details: { mode, chain: payout.chain, amount: formatAmount(payout.amountUnits) },
    });
    return row;
  });
}

export type PolicyOutcome = { ok: true } | { ok: false; error: string; field: "review_above" | "allow_self_approval" };

/**
 * Sets the mode's payout policy (step-up): review above an amount (blank: no limit) and review of new
 * destinations, as `payouts policy set` does. Audited with the old and new values.
 */
export async function setDashboardPolicy(
  db: Db,
  actor: Actor,
  user: Stepper,
  mode: Mode,
  input: { reviewAbove: string; reviewNewDestinations: boolean; allowSelfApproval?: boolean },
): Promise<PolicyOutcome> {
  requireStepUp(user);
  const raw = input.reviewAbove.trim();
  const parsed = raw === "" ? null : parseAmount(raw, "exact");
  if (parsed && !parsed.ok)
    return {
      ok: false,
      error: `Review above: ${parsed.message.replace(/^amount /, "")}, or blank for no limit`,
      field: "review_above",
    };
  return inTransaction(db, async (tx): Promise<PolicyOutcome> => {
    const before = await getPayoutPolicy(tx, actor.merchantId, mode);
    const allowSelfApproval = input.allowSelfApproval ?? false;
    if (allowSelfApproval && (await approverCount(tx, actor.merchantId)) !== 1)
      return { ok: false, error: SELF_APPROVAL_REFUSED, field: "allow_self_approval" };
    const after = await setPayoutPolicy(tx, {
      merchant: actor.merchantId,
      mode,
      reviewAboveUnits: parsed ? parsed.units : null,
      reviewNewDestinations: input.reviewNewDestinations,
      allowSelfApproval,
    });
    const shown = (units: bigint | null) => (units === null ? null : formatAmount(units));
    await recordAudit(tx, actor, {
      action: "payout_policy.updated",
      target: `${actor.merchantId}:${mode}`,
      details: {
        mode,
        review_above: [shown(before.reviewAboveUnits), shown(after.reviewAboveUnits)],
        review_new_destinations: [before.reviewNewDestinations, after.reviewNewDestinations],
        allow_self_approval: [before.allowSelfApproval, after.allowSelfApproval],
      },
    });
    return { ok: true };
  });
}

export const SELF_APPROVAL_REFUSED =
  "Self-approval is only for a team with a single owner and no admin: " +
  "with two, each payout needs the other's approval.";
