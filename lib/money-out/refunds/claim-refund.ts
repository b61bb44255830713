import { DomainError } from "@/lib/kernel/domain-error";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { CLAIM_CODE_ATTEMPTS, claimCodeMatches, hashClaimToken, isClaimTokenShape } from "./claim-token";
import { checkRefundDestination } from "./refund-destination";
import { REFUND_COLUMNS, type RefundRow, toRefundRow } from "./refund-row";
import { lockRefund, transitionRefund } from "./refund-kind";

export interface RefundClaim {
  refund: RefundRow;
  merchantName: string;
  /** Too many wrong codes: the link works again only once the merchant regenerates it. */
  locked: boolean;
}

/**
 * The refund a claim link points at, while it waits for the payer's address and its window is open; null
 * otherwise (unknown, malformed, used, canceled or expired: the page answers 404 for each alike).
 */
export async function loadRefundClaim(db: Db, token: string): Promise<RefundClaim | null> {
  if (!isClaimTokenShape(token)) return null;
  const [row] = await query(
    db,
    `select ${REFUND_COLUMNS}, (select name from merchants m where m.id = r.merchant_id) as merchant_name
       from refunds r where claim_token_hash = $1 and status = 'requires_action' and expires_at > now()`,
    [hashClaimToken(token)],
  );
  if (!row) return null;
  const refund = toRefundRow(row);
  return {
    refund,
    merchantName: row.merchant_name as string,
    locked: refund.claimCodeRequired && refund.claimCodeFailures >= CLAIM_CODE_ATTEMPTS,
  };
}

const lockedError = () =>
  new DomainError(
    "invalid_request_error",
    "This link is locked after too many wrong codes: ask the merchant for a new one.",
    {
      param: "code",
    },
  );

/**
 * The code the payer typed, when the refund requires one. Each try takes one of the link's attempts before it is
 * compared (an atomic update), so however many tries run at once, at most CLAIM_CODE_ATTEMPTS wrong codes are
 * ever checked; a right code gives its attempt back. Throws a DomainError with param `code`.
 */
export async function checkClaimCode(db: Db, claim: RefundClaim, code: string): Promise<void> {
  const { refund } = claim;
  if (!refund.claimCodeRequired) return;
  if (!code.trim())
    throw new DomainError("invalid_request_error", "Enter the code the merchant sent you.", { param: "code" });
  const [taken] = await query<{ hash: string | null; failures: number }>(
    db,
    `update refunds set claim_code_failures = claim_code_failures + 1
      where id = $1 and claim_token_hash = $2 and claim_code_failures < $3
      returning claim_code_hash as hash, claim_code_failures as failures`,
    [refund.id, refund.claimTokenHash, CLAIM_CODE_ATTEMPTS],
  );
  if (!taken?.hash) throw lockedError();
  if (!claimCodeMatches(refund.id, taken.hash, code)) {
    if (taken.failures >= CLAIM_CODE_ATTEMPTS) throw lockedError();
    throw new DomainError(
      "invalid_request_error",
      "That code is not the one for this refund. Check it and try again.",
      {
        param: "code",
      },
    );
  }
  // Given back to this link only (a regenerated one started again from 0).
  await query(
    db,
    "update refunds set claim_code_failures = greatest(claim_code_failures - 1, 0) " +
      "where id = $1 and claim_token_hash = $2",
    [refund.id, refund.claimTokenHash],
  );
}

/**
 * The payer's address, checked as a payout's destination is (format, the service's own addresses, then the
 * network's answer for Solana, outside any transaction). Throws a DomainError with param `address`.
 */
export async function checkClaimAddress(db: Db, claim: RefundClaim, address: string): Promise<void> {
  const check = await checkRefundDestination(db, claim.refund, claim.refund.chain, address, "address");
  await check();
}

/**
 * The payer confirmed the address (and the code, when one is required): once (the token dies in this
 * transaction), the refund is `pending` with its `to_address` and its execution is enqueued with it. A second
 * submit, or one after the window, finds nothing to claim.
 */
export async function claimRefund(db: Db, token: string, address: string, code = ""): Promise<RefundRow> {
  const claim = await loadRefundClaim(db, token);
  if (!claim) throw new DomainError("not_found", "This refund link is no longer valid.", { param: "token" });
  await checkClaimCode(db, claim, code);
  await checkClaimAddress(db, claim, address);
  return inTransaction(db, async (tx) => {
    const refund = await lockRefund(tx, claim.refund.id);
    const open =
      refund?.status === "requires_action" &&
      refund.claimTokenHash === hashClaimToken(token) &&
      refund.expiresAt !== null &&
      refund.expiresAt.getTime() > Date.now();
    if (!open) throw new DomainError("not_found", "This refund link is no longer valid.", { param: "token" });
    const claimed = await transitionRefund(tx, refund, "claimed", { columns: { to_address: address } });
    await enqueueJob(tx, "execute_refund", { refund_id: refund.id }, { jobKey: `execute_refund:${refund.id}` });
    return claimed;
  });
}
