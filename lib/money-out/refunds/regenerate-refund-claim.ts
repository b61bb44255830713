import { invalidRequest, notFound } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { newClaimCode, newClaimToken } from "./claim-token";
import type { CreatedRefund } from "./create-refund";
import { REFUND_COLUMNS, toRefundRow } from "./refund-row";
import type { RegenerateClaimInput } from "./schemas";

/**
 * A new claim link for a refund still waiting for the payer's address, in the caller's transaction: the old
 * token (and code) stop working when this commits, the wrong-code count starts again, and the window stays as
 * it was. The code is required as before unless `require_claim_code` says otherwise. No event: nothing the
 * payer or the merchant's books see has changed.
 */
export async function regenerateRefundClaim(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  id: string,
  input: RegenerateClaimInput,
): Promise<CreatedRefund> {
  const [current] = await query<{ status: string; claim_code_required: boolean }>(
    db,
    "select status, claim_code_required from refunds where id = $1 and merchant_id = $2 and mode = $3 for update",
    [id, owner.merchantId, owner.mode],
  );
  if (!current) throw notFound("refund", id);
  if (current.status !== "requires_action")
    throw invalidRequest(
      `The refund is ${current.status}: only a refund waiting for the payer's address has a claim link.`,
    );
  const token = newClaimToken(id);
  const code = (input.require_claim_code ?? current.claim_code_required) ? newClaimCode(id) : null;
  const [raw] = await query(
    db,
    `update refunds set claim_token_hash = $2, claim_token_sealed = $3, claim_code_required = $4,
       claim_code_hash = $5, claim_code_failures = 0, updated_at = now()
     where id = $1 returning ${REFUND_COLUMNS}`,
    [id, token.hash, token.sealed, code !== null, code?.hash ?? null],
  );
  return { row: toRefundRow(raw!), claimCode: code?.code ?? null };
}
