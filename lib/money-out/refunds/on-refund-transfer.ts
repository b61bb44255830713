import type { OutboundTrigger } from "@/lib/money-out/outbound/outbound-lifecycle";
import type { OutboundRow } from "@/lib/money-out/outbound/outbound-row";
import type { Db } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import { lockRefund, transitionRefund } from "./transition-refund";

/**
 * A refund's side of its transfer's transitions (lib/money-out/outbound/transition-outbound.ts), in the same
 * transaction: signed → `processing` with its `tx_hash`; re-signed or landed → the new hash and confirmations;
 * confirmed → `succeeded` (refunds_in_flight → chain_withdrawals, `refund.succeeded`); reverted, or given up
 * after signing → `failed` with the amount back in `available` (`refund.failed`).
 */
export async function onRefundTransfer(tx: Db, intent: OutboundRow, trigger: OutboundTrigger): Promise<void> {
  if (intent.purpose !== "refund" || !intent.causeId) return;
  const refund = await lockRefund(tx, intent.causeId);
  if (!refund) return;
  switch (trigger) {
    case "signed":
      if (refund.status === "pending") await transitionRefund(tx, refund, "signed", { txHash: intent.txHash });
      return;
    case "resigned":
    case "landed":
    case "reorged":
      await execute(
        tx,
        "update refunds set tx_hash = coalesce($2, tx_hash), confirmations = $3, updated_at = now() where id = $1",
        [refund.id, intent.txHash, trigger === "reorged" ? null : intent.confirmations],
      );
      return;
    case "confirmed":
      if (refund.status === "processing")
        await transitionRefund(tx, refund, "settled", {
          txHash: intent.txHash,
          confirmations: intent.confirmations,
          succeededAt: intent.confirmedAt ?? new Date(),
        });
      return;
    case "reverted":
      if (refund.status === "processing")
        await transitionRefund(tx, refund, "transfer_failed", {
          txHash: intent.txHash,
          failureCode: "transfer_reverted",
        });
      return;
    case "given_up":
      if (refund.status === "processing")
        await transitionRefund(tx, refund, "transfer_failed", { failureCode: "transfer_expired" });
      return;
    default:
      return;
  }
}

/** Confirmations of a landed refund transfer, as they grow (no transition). */
export async function syncRefundConfirmations(db: Db, intent: OutboundRow): Promise<void> {
  if (intent.purpose !== "refund" || !intent.causeId) return;
  await execute(
    db,
    "update refunds set confirmations = $2, updated_at = now() where id = $1 and status = 'processing'",
    [intent.causeId, intent.confirmations],
  );
}
