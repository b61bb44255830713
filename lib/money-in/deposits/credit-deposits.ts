import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { postJournals } from "@/lib/books/ledger/post-journal";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { CREDIT } from "./deposit-lifecycle";
import { depositCreditJournals } from "./settle-receivables";
import type { WatchScope } from "./watch-scope";

/**
 * Marks credited (CREDIT) the pending deposits of these payments mined at or before `maxBlock`, and returns
 * their total per payment. The deposits flip in the same statement that reads their amounts, so each is
 * counted once; the confirming payment posts the money itself, one journal per payment
 * (PAYMENT_LIFECYCLE's confirmations_complete, lib/money-in/payments/advance-payments.ts).
 */
export async function creditPaymentDeposits(
  tx: Db,
  paymentIds: string[],
  maxBlock: number,
): Promise<Map<string, bigint>> {
  if (paymentIds.length === 0) return new Map();
  const credited = await query<{ payment_id: string; total: string }>(
    tx,
    `with c as (update deposits set status = $3, credited_at = now()
                where payment_id = any($1::text[]) and kind = 'payment' and status = $4 and block_number <= $2
                returning payment_id, amount_units)
     select payment_id, sum(amount_units)::text as total from c group by payment_id`,
    [paymentIds, maxBlock, CREDIT.to, CREDIT.from],
  );
  return new Map(credited.map((c) => [c.payment_id, BigInt(c.total)]));
}

/**
 * Credits deposits that are deep enough and belong to no payment still in progress: transfers to a
 * payment that is already confirmed (an extra transfer, or its own transfer mined again after a deep
 * reorganization reversed it), expired (partial or late funds) or failed, and transfers on the wrong
 * network. Each is its own journal (reserved → available, settling a reorg receivable first), exactly once.
 */
export async function creditSettledDeposits(tx: Db, scope: WatchScope, head: { number: number }): Promise<number> {
  const credited = await query<{
    id: string;
    merchant_id: string;
    amount_units: string;
    payment_id: string;
    kind: string;
  }>(
    tx,
    `update deposits d set status = $4, credited_at = now()
     from payments p
     where p.id = d.payment_id and d.mode = $1 and d.chain = $2 and d.status = $5 and d.block_number <= $3
       and (d.kind = 'wrong_network' or p.status in ('confirmed','expired','failed'))
     returning d.id, d.merchant_id, d.amount_units::text, d.payment_id, d.kind`,
    [scope.mode, scope.chain, head.number - scope.confirmations.required + 1, CREDIT.to, CREDIT.from],
  );
  await postJournals(tx, await depositCreditJournals(tx, scope, credited));
  // Money beyond a finished payment (overpaid, or late): the merchant's refund policy may open a refund of it.
  for (const paymentId of new Set(credited.filter((d) => d.kind === "payment").map((d) => d.payment_id)))
    await enqueueJob(
      tx,
      "apply_refund_policy",
      { payment_id: paymentId },
      { jobKey: `apply_refund_policy:${paymentId}` },
    );
  return credited.length;
}
