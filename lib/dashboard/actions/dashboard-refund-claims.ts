import { invalidRequest } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { type Actor, recordAudit } from "@/lib/identity/users/audit";
import type { SessionUser } from "@/lib/identity/users/sessions";
import { requireStepUp } from "@/lib/identity/users/step-up";
import { getRefund } from "@/lib/money-out/refunds/refund-kind";
import { regenerateRefundClaim } from "@/lib/money-out/refunds/regenerate-refund-claim";
import { claimUrlOf } from "@/lib/money-out/refunds/serialize-refund";
import { config } from "@/lib/platform/config/env";
import { type Db, inTransaction } from "@/lib/platform/db/client";

type Refunder = { actor: Actor & { userId: string }; user: Pick<SessionUser, "secondFactorAt">; mode: Mode };

/** What a refunder is shown of an open claim: the link, and the code only when it was just made. */
export interface ClaimSecrets {
  claimUrl: string;
  claimCode: string | null;
}

/**
 * The claim link of a refund waiting for the payer, for a refunder who asked to see it (the caller checked
 * refunds:write; step-up in live mode), with an audit entry in the same transaction: who saw it, and when.
 */
export async function revealDashboardRefundClaim(db: Db, who: Refunder, id: string): Promise<ClaimSecrets> {
  if (who.mode === "live") requireStepUp(who.user);
  return inTransaction(db, async (tx) => {
    const row = await getRefund(tx, { merchantId: who.actor.merchantId, mode: who.mode }, id);
    const claimUrl = claimUrlOf(row, config().publicBaseUrl);
    if (!claimUrl) throw invalidRequest(`The refund is ${row.status}: it has no open claim link.`);
    await recordAudit(tx, who.actor, { action: "refund.claim_link_shown", target: id, details: { mode: who.mode } });
    return { claimUrl, claimCode: null };
  });
}

/** A new claim link (and code) for a refund waiting for the payer; the old ones die at once. Audited. */
export async function regenerateDashboardRefundClaim(
  db: Db,
  who: Refunder,
  id: string,
  requireClaimCode: boolean,
): Promise<ClaimSecrets> {
  if (who.mode === "live") requireStepUp(who.user);
  return inTransaction(db, async (tx) => {
    const owner = { merchantId: who.actor.merchantId, mode: who.mode };
    const { row, claimCode } = await regenerateRefundClaim(tx, owner, id, { require_claim_code: requireClaimCode });
    await recordAudit(tx, who.actor, {
      action: "refund.claim_link_regenerated",
      target: id,
      details: { mode: who.mode, claim_code: claimCode !== null },
    });
    return { claimUrl: claimUrlOf(row, config().publicBaseUrl)!, claimCode };
  });
}
