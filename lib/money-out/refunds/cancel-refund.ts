import { invalidRequest, notFound } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { outboundRow } from "@/lib/money-out/outbound/outbound-row";
import { transitionOutbound } from "@/lib/money-out/outbound/transition-outbound";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { RefundRow } from "./refund-row";
import { lockRefund, transitionRefund } from "./refund-kind";

/**
 * Cancels a refund before its transfer is signed (`requires_action` or `pending`), in the caller's transaction:
 * the amount goes back to `available` and `refund.canceled` is recorded. A transfer already queued is given up
 * in the same transaction, its row locked first, as the signer locks it, so the signer either signs before
 * (and the cancel is refused: the refund is `processing`) or finds it given up and never signs.
 */
export async function cancelRefund(db: Db, owner: { merchantId: string; mode: Mode }, id: string): Promise<RefundRow> {
  const [peek] = await query<{ outbound_id: string | null }>(
    db,
    "select outbound_id from refunds where id = $1 and merchant_id = $2 and mode = $3",
    [id, owner.merchantId, owner.mode],
  );
  if (!peek) throw notFound("refund", id);
  const transfer = peek.outbound_id ? await lockTransfer(db, peek.outbound_id) : null;
  const refund = (await lockRefund(db, id))!;
  if (refund.status !== "requires_action" && refund.status !== "pending")
    throw invalidRequest(`The refund is ${refund.status}: only a refund not yet sent can be canceled.`);
  // Queued between the read above and the lock (execute_refund commits it under the refund's lock).
  if (refund.outboundId && !transfer)
    throw invalidRequest("The refund's transfer is being queued right now; retry the cancel in a moment.");
  if (transfer) {
    if (transfer.status !== "intent")
      throw invalidRequest("The refund's transfer is signed: it can no longer be canceled.");
    await transitionOutbound(db, transfer, "given_up", { failure: "The refund was canceled by the merchant." });
  }
  return transitionRefund(db, refund, "canceled", { failureCode: "canceled_by_merchant" });
}

async function lockTransfer(db: Db, id: string) {
  const [row] = await query(db, `select ${outboundRow.columns} from outbound_transactions where id = $1 for update`, [
    id,
  ]);
  return outboundRow.map(row!);
}
