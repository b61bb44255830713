import { DomainError } from "@/lib/kernel/domain-error";
import { validate } from "@/lib/http/api/parse-input";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import type { Mode } from "@/lib/kernel/mode";
import { createPayout, preparePayout } from "@/lib/money-out/payouts/create-payout";
import type { PayoutRow } from "@/lib/money-out/payouts/payout-row";
import { createPayoutBody } from "@/lib/money-out/payouts/schemas";
import { formatAmount } from "@/lib/kernel/amount";
import { type Actor, recordAudit } from "@/lib/identity/users/audit";
import type { SessionUser } from "@/lib/identity/users/sessions";
import { requireStepUp } from "@/lib/identity/users/step-up";

/** What the payout form sends: every field a string, empty when left blank. */
export interface PayoutFormFields {
  chain: string;
  to_address: string;
  amount: string;
  description: string;
  metadata: string;
}

export type CreatePayoutOutcome = { ok: true; payout: PayoutRow } | { ok: false; error: string; field: string | null };

/** The form as the JSON body `POST /v1/payouts` would get: blank optional fields left out. */
function toBody(fields: PayoutFormFields): Record<string, unknown> | CreatePayoutOutcome {
  const body: Record<string, unknown> = {
    chain: fields.chain,
    to_address: fields.to_address.trim(),
    amount: fields.amount.trim(),
  };
  if (fields.description.trim()) body.description = fields.description;
  if (fields.metadata.trim()) {
    try {
      body.metadata = JSON.parse(fields.metadata);
    } catch {
      return { ok: false, error: 'metadata must be a JSON object, for example {"order": "A-1"}', field: "metadata" };
    }
  }
  return body;
}

/**
 * Creates a payout from the dashboard (step-up in both modes): the body is validated and the destination
 * checked exactly as `POST /v1/payouts` does, then `createPayout` and the audit entry share one transaction.
 * A refusal comes back with the field it concerns (the API's `param`), to show next to it.
 */
export async function createDashboardPayout(
  db: Db,
  actor: Actor & { userId: string },
  user: Pick<SessionUser, "secondFactorAt">,
  mode: Mode,
  fields: PayoutFormFields,
): Promise<CreatePayoutOutcome> {
  requireStepUp(user);
  const owner = { merchantId: actor.merchantId, mode };
  const body = toBody(fields);
  if ("ok" in body) return body as CreatePayoutOutcome;
  try {
    const input = validate(createPayoutBody, body);
    const check = await preparePayout(db, owner, input);
    await check();
    const payout = await inTransaction(db, async (tx) => {
      const row = await createPayout(tx, owner, input, { userId: actor.userId });
      await recordAudit(tx, actor, {
        action: "payout.created",
        target: row.id,
        details: { mode, chain: row.chain, amount: formatAmount(input.amount), to_address: row.toAddress },
      });
      return row;
    });
    return { ok: true, payout };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, error: err.message, field: err.param?.split(".")[0] ?? null };
    throw err;
  }
}
