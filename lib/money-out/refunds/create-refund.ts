import { formatAmount } from "@/lib/kernel/amount";
import { DomainError } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { newId } from "@/lib/kernel/random";
import { recordCauseEvents } from "@/lib/money-out/transfers/move-cause";
import { reserveForCause } from "@/lib/money-out/transfers/reserve-cause";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { newClaimCode, newClaimToken } from "./claim-token";
import { refundMinimum } from "./refund-minimum";
import { REFUND_COLUMNS, type RefundRow, toRefundRow } from "./refund-row";
import type { CreateRefundInput } from "./schemas";
import { REFUND_KIND } from "./refund-kind";

/** How long a payer has to claim a refund (docs/REFUNDS.md). */
export const CLAIM_WINDOW_MS = 7 * 24 * 3600_000;

/** Who asks for a refund: a dashboard user, an API key, or the merchant's refund policy. */
export type RefundCreator = { userId: string } | { keyId: string } | { policy: true };

/** A refund just made, with its claim code in clear when it has one: shown once to its creator, never stored. */
export interface CreatedRefund {
  row: RefundRow;
  claimCode: string | null;
}

const refuse = (param: string, message: string) => new DomainError("invalid_request_error", message, { param });

/**
 * Creates a refund in the caller's transaction (docs/REFUNDS.md): the payment is locked first, so concurrent
 * refunds of it serialize and never exceed what it received and was credited; then `available` →
 * `refunds_in_flight` (422 insufficient_balance when `available` on the chain is short, nothing written). A
 * `claim` refund waits in `requires_action` for the payer's address; the others are `pending` and their
 * execution (job `execute_refund`) is enqueued in this same transaction. `toAddress` was checked before
 * (lib/money-out/refunds/refund-destination.ts); null for a claim. Its events carry no claim secret.
 */
export async function createRefund(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  input: CreateRefundInput,
  toAddress: string | null,
  createdBy: RefundCreator,
): Promise<CreatedRefund> {
  const [payment] = await query<{ chain: string | null; refunded: string; credited: string }>(
    db,
    `select p.chain, p.amount_refunded_units::text as refunded,
            (select coalesce(sum(d.amount_units), 0) from deposits d
              where d.payment_id = p.id and d.kind = 'payment' and d.status = 'credited')::text as credited
       from payments p where p.id = $1 and p.merchant_id = $2 and p.mode = $3 for update of p`,
    [input.payment, owner.merchantId, owner.mode],
  );
  if (!payment) throw refuse("payment", `No such payment: ${input.payment}`);
  const refundable = BigInt(payment.credited) - BigInt(payment.refunded);
  if (!payment.chain || BigInt(payment.credited) === 0n)
    throw refuse("payment", "The payment has received nothing that is credited yet; nothing can be refunded.");
  if (refundable <= 0n) throw refuse("payment", "The payment is already refunded in full.");
  const amount = input.amount ?? refundable;
  if (amount > refundable)
    throw refuse(
      "amount",
      "amount is above what the payment can still refund " +
        `(${formatAmount(refundable)} USDT of ${formatAmount(BigInt(payment.credited))} received)`,
    );
  const chain = payment.chain as RefundRow["chain"];
  const minimum = refundMinimum(chain, owner.mode);
  if (amount < minimum)
    throw refuse(
      "amount",
      `A refund on ${chain} is at least ${formatAmount(minimum)} USDT: ` +
        `below that, its network fee would cost more than it returns.`,
    );
  const id = newId("re_");
  await reserveForCause(db, "refund", { id, merchantId: owner.merchantId, mode: owner.mode, chain, amount });
  await query(db, "update payments set amount_refunded_units = amount_refunded_units + $2 where id = $1", [
    input.payment,
    amount.toString(),
  ]);
  const claim = input.destination === "claim" ? newClaimToken(id) : null;
  const code = claim && input.require_claim_code ? newClaimCode(id) : null;
  const [raw] = await query(
    db,
    `insert into refunds (id, merchant_id, mode, payment_id, chain, status, destination, to_address, amount_units,
       reason, metadata, claim_token_hash, claim_token_sealed, created_by_user_id, created_by_key_id, created_by_policy,
       claim_code_required, claim_code_hash, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $17, $18, $19, now(),
       now() + make_interval(secs => $16::double precision / 1000)) returning ${REFUND_COLUMNS}`,
    [
      id,
      owner.merchantId,
      owner.mode,
      input.payment,
      chain,
      claim ? "requires_action" : "pending",
      input.destination,
      toAddress,
      amount.toString(),
      input.reason ?? null,
      JSON.stringify(input.metadata ?? {}),
      claim?.hash ?? null,
      claim?.sealed ?? null,
      "userId" in createdBy ? createdBy.userId : null,
      "keyId" in createdBy ? createdBy.keyId : null,
      // The database's clock, as the expiry job's: a web host's clock never decides the window.
      claim ? CLAIM_WINDOW_MS : null,
      "policy" in createdBy,
      code !== null,
      code?.hash ?? null,
    ],
  );
  const row = toRefundRow(raw!);
  await recordCauseEvents(
    db,
    REFUND_KIND,
    row,
    claim ? ["refund.created", "refund.requires_action"] : ["refund.created"],
  );
  if (claim)
    await enqueueJob(
      db,
      "expire_refund_claim",
      { refund_id: id },
      { jobKey: `expire_refund_claim:${id}`, runAt: row.expiresAt! },
    );
  else await enqueueJob(db, "execute_refund", { refund_id: id }, { jobKey: `execute_refund:${id}` });
  return { row, claimCode: code?.code ?? null };
}
