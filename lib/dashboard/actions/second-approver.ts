import type { Db } from "@/lib/platform/db/client";
import { apiKeyCreator } from "@/lib/identity/api-keys/api-key-owner";
import { countMembersWithRoles } from "@/lib/identity/users/list-members";
import type { PayoutRow } from "@/lib/money-out/payouts/payout-row";
import { can, USER_ROLES } from "@/lib/identity/users/roles";

/** Approving a payout you asked for is refused: review is a two-person control (docs/PAYOUTS.md, "Two people"). */
export class SelfApprovalError extends Error {}

/** The roles that may approve payouts, from THE role table. */
export const APPROVER_ROLES = USER_ROLES.filter((role) => can(role, "payouts:approve"));

/** The dashboard user who asked for the payout: its creator, or the user who created (or rolled) its API key. */
export async function payoutRequester(db: Db, payout: PayoutRow): Promise<string | null> {
  if (payout.createdByUserId) return payout.createdByUserId;
  if (!payout.createdByKeyId) return null;
  return apiKeyCreator(db, payout.createdByKeyId);
}

/** How many members of the merchant may approve payouts (owners and admins). */
export async function approverCount(db: Db, merchantId: string): Promise<number> {
  return countMembersWithRoles(db, merchantId, APPROVER_ROLES);
}

/**
 * Refuses approval by the person who asked for the payout, unless the policy allows self-approval and the
 * team has a single approver (then there is no second person to ask; the option says so).
 */
export async function requireSecondApprover(
  db: Db,
  payout: PayoutRow,
  approverId: string,
  allowSelfApproval: boolean,
): Promise<void> {
  if ((await payoutRequester(db, payout)) !== approverId) return;
  if (allowSelfApproval && (await approverCount(db, payout.merchantId)) === 1) return;
  throw new SelfApprovalError(
    allowSelfApproval
      ? "You asked for this payout, and the team now has another owner or admin: they must approve it."
      : "You asked for this payout: another owner or admin must approve it.",
  );
}
