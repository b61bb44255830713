import { DomainError } from "@/lib/kernel/domain-error";
import type { Chain } from "@/lib/kernel/chain-ids";
import type { Mode } from "@/lib/kernel/mode";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { log } from "@/lib/platform/log";
import { createRefund } from "./create-refund";
import { refundMinimum } from "./refund-minimum";
import { getRefundPolicy } from "./refund-policy";
import type { RefundReason } from "./schemas";

/**
 * Job `apply_refund_policy`, enqueued when money beyond a finished payment is credited: the claim refunds the
 * merchant's policy asks for, each amount opened once. Overpaid (a confirmed payment): the excess over the
 * amount, when above the threshold. Late (an expired or failed payment): what arrived at or after its expiry.
 * Neither is opened below the chain's minimum refund (refund-minimum.ts).
 * What the policy already refunded for that reason (whatever became of it: a canceled or expired claim is not
 * offered again) is subtracted, so running it again opens nothing twice. A refund the balance or the payment
 * no longer allows (paid out or refunded by hand meanwhile) is skipped and logged.
 */
export async function applyRefundPolicy(db: Db, paymentId: string): Promise<RefundReason[]> {
  const [payment] = await query<{ merchant_id: string; mode: Mode; status: string; chain: Chain | null }>(
    db,
    "select merchant_id, mode, status, chain from payments where id = $1",
    [paymentId],
  );
  if (!payment) return [];
  const policy = await getRefundPolicy(db, payment.merchant_id, payment.mode);
  const reasons: RefundReason[] = [];
  if (payment.status === "confirmed" && policy.overpaidAboveUnits !== null) reasons.push("overpayment");
  if ((payment.status === "expired" || payment.status === "failed") && policy.refundLatePayments)
    reasons.push("late_payment");
  const opened: RefundReason[] = [];
  for (const reason of reasons) {
    try {
      const done = await inTransaction(db, async (tx) => {
        const [due] = await query<{ due: string }>(tx, reason === "overpayment" ? OVERPAID : LATE, [paymentId, reason]);
        const amount = BigInt(due!.due);
        if (amount <= 0n || (reason === "overpayment" && amount <= policy.overpaidAboveUnits!)) return false;
        // Dust anyone can send to a deposit address never costs the treasury a transfer's fee.
        if (payment.chain && amount < refundMinimum(payment.chain, payment.mode)) {
          log.info("the refund policy left an amount below the chain's minimum refund", { payment: paymentId, reason });
          return false;
        }
        await createRefund(
          tx,
          { merchantId: payment.merchant_id, mode: payment.mode },
          { payment: paymentId, amount, destination: "claim", reason, metadata: {} },
          null,
          { policy: true },
        );
        return true;
      });
      if (done) opened.push(reason);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      log.warn("the refund policy could not open a refund", { payment: paymentId, reason, why: err.message });
    }
  }
  return opened;
}

// Both lock the payment first (as createRefund does), then read what is due less what the policy already opened.
const ALREADY =
  "(select coalesce(sum(amount_units), 0) from refunds where payment_id = p.id and created_by_policy and reason = $2)";
const credited = (and = "") =>
  `(select coalesce(sum(d.amount_units), 0) from deposits d
     where d.payment_id = p.id and d.kind = 'payment' and d.status = 'credited'${and})`;
const OVERPAID = `select (${credited()} - p.amount_units - ${ALREADY})::text as due
                    from payments p where p.id = $1 for update`;
const LATE = `select (${credited(" and d.block_time >= p.expires_at")} - ${ALREADY})::text as due
                from payments p where p.id = $1 for update`;
