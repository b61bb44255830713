import { explorerTxUrl } from "@/lib/chains/explorer-urls";
import { DomainError } from "@/lib/kernel/domain-error";
import { formatAmount } from "@/lib/kernel/amount";
import type { Mode } from "@/lib/kernel/mode";
import { validate } from "@/lib/http/api/parse-input";
import { type Actor, recordAudit } from "@/lib/identity/users/audit";
import type { SessionUser } from "@/lib/identity/users/sessions";
import { requireStepUp } from "@/lib/identity/users/step-up";
import { cancelRefund } from "@/lib/money-out/refunds/cancel-refund";
import { createRefund } from "@/lib/money-out/refunds/create-refund";
import { getRefund } from "@/lib/money-out/refunds/refund-kind";
import { listRefunds } from "@/lib/money-out/refunds/list-refunds";
import { prepareRefundDestination } from "@/lib/money-out/refunds/prepare-refund";
import type { RefundStatus } from "@/lib/money-out/refunds/schemas";
import { createRefundBody } from "@/lib/money-out/refunds/schemas";
import { claimUrlOf, serializeRefund } from "@/lib/money-out/refunds/serialize-refund";
import { config } from "@/lib/platform/config/env";
import { type Db, inTransaction } from "@/lib/platform/db/client";

type Owner = { merchantId: string; mode: Mode };

/**
 * A refund as the dashboard shows it: the API's object without claim secrets (a refunder reveals the link with an
 * audited action, lib/dashboard/actions/dashboard-refund-claims.ts), with its transaction's explorer link in live mode.
 */
const view = (row: Awaited<ReturnType<typeof getRefund>>) => {
  const refund = serializeRefund(row);
  return { ...refund, explorer_url: row.mode === "live" && row.txHash ? explorerTxUrl(row.chain, row.txHash) : null };
};
export type RefundView = ReturnType<typeof view>;

/** The refunds page: newest first, optionally of one status, 50 at a time. */
export async function listDashboardRefunds(
  db: Db,
  owner: Owner,
  page: { status?: RefundStatus; startingAfter?: string; payment?: string },
) {
  const result = await listRefunds(db, owner, {
    limit: 50,
    status: page.status,
    starting_after: page.startingAfter,
    payment: page.payment,
  });
  return { refunds: result.rows.map(view), hasMore: result.hasMore };
}

/** One refund of this merchant and mode; null → 404. */
export async function loadRefundDetail(db: Db, owner: Owner, id: string): Promise<RefundView | null> {
  try {
    return view(await getRefund(db, owner, id));
  } catch (err) {
    if (err instanceof DomainError && err.type === "not_found") return null;
    throw err;
  }
}

export interface RefundFormFields {
  payment: string;
  amount: string;
  destination: string;
  to_address: string;
  reason: string;
  /** "on" when the claim page must also ask for a one-time code. */
  require_claim_code?: string;
}

/** A refund just made, with its claim link and code: shown once, to the refunder who made it. */
export type RefundOutcome =
  | { ok: true; refund: RefundView; claimUrl: string | null; claimCode: string | null }
  | { ok: false; error: string; field: string | null };

/**
 * Refunds from the dashboard, validated and checked exactly as `POST /v1/refunds` (a second factor within
 * the step-up window in live mode), with its audit entry in the refund's transaction.
 */
export async function createDashboardRefund(
  db: Db,
  actor: Actor & { userId: string },
  user: Pick<SessionUser, "secondFactorAt">,
  mode: Mode,
  fields: RefundFormFields,
): Promise<RefundOutcome> {
  if (mode === "live") requireStepUp(user);
  const owner = { merchantId: actor.merchantId, mode };
  const body: Record<string, unknown> = { payment: fields.payment, destination: fields.destination || "claim" };
  if (fields.amount.trim()) body.amount = fields.amount.trim();
  if (fields.reason) body.reason = fields.reason;
  if (body.destination === "address") body.to_address = fields.to_address.trim();
  if (fields.require_claim_code) body.require_claim_code = true;
  try {
    const input = validate(createRefundBody, body);
    const prepared = await prepareRefundDestination(db, owner, input);
    await prepared.check();
    const { row, claimCode } = await inTransaction(db, async (tx) => {
      const created = await createRefund(tx, owner, input, prepared.toAddress, { userId: actor.userId });
      await recordAudit(tx, actor, {
        action: "refund.created",
        target: created.row.id,
        details: {
          mode,
          payment: created.row.paymentId,
          amount: formatAmount(created.row.amountUnits),
          to: created.row.destination,
          claim_code: created.claimCode !== null,
        },
      });
      return created;
    });
    const claimUrl = claimUrlOf(row, config().publicBaseUrl);
    return { ok: true, refund: view(row), claimUrl, claimCode };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, error: err.message, field: err.param?.split(".")[0] ?? null };
    throw err;
  }
}

/** Cancels a refund not yet sent (step-up in live mode), audited. */
export async function cancelDashboardRefund(
  db: Db,
  actor: Actor & { userId: string },
  user: Pick<SessionUser, "secondFactorAt">,
  mode: Mode,
  id: string,
): Promise<RefundView> {
  if (mode === "live") requireStepUp(user);
  const row = await inTransaction(db, async (tx) => {
    const canceled = await cancelRefund(tx, { merchantId: actor.merchantId, mode }, id);
    await recordAudit(tx, actor, { action: "refund.canceled", target: id, details: { mode } });
    return canceled;
  });
  return view(row);
}
