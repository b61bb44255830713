import type { Db } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import type { OutboundTrigger } from "@/lib/money-out/outbound/outbound-lifecycle";
import type { OutboundRow } from "@/lib/money-out/outbound/outbound-row";
import { lockPayout, transitionPayout } from "./transition-payout";

/**
 * A payout's side of its transfer's transitions (lib/money-out/outbound/transition-outbound.ts), in the same
 * transaction: signed → `processing` with its `tx_hash`; re-signed or landed → the new hash and confirmations;
 * confirmed → `confirmed` (payouts_in_flight → chain_withdrawals, `payout.confirmed`); reverted, or given up
 * after signing → `failed` with the amount back in `available` (`payout.failed`).
 */
export async function onPayoutTransfer(tx: Db, intent: OutboundRow, trigger: OutboundTrigger): Promise<void> {
  if (intent.purpose !== "payout" || !intent.causeId) return;
  const payout = await lockPayout(tx, intent.causeId);
  if (!payout) return;
  switch (trigger) {
    case "signed":
      if (payout.status === "pending") await transitionPayout(tx, payout, "signed", { txHash: intent.txHash });
      return;
    case "resigned":
    case "landed":
    case "reorged":
      await execute(
        tx,
        "update payouts set tx_hash = coalesce($2, tx_hash), confirmations = $3, updated_at = now() where id = $1",
        [payout.id, intent.txHash, trigger === "reorged" ? null : intent.confirmations],
      );
      return;
    case "confirmed":
      if (payout.status === "processing")
        await transitionPayout(tx, payout, "settled", {
          txHash: intent.txHash,
          confirmations: intent.confirmations,
          confirmedAt: intent.confirmedAt ?? new Date(),
        });
      return;
    case "reverted":
      if (payout.status === "processing")
        await transitionPayout(tx, payout, "transfer_failed", {
          txHash: intent.txHash,
          failureCode: "transfer_reverted",
        });
      return;
    case "given_up":
      if (payout.status === "processing")
        await transitionPayout(tx, payout, "transfer_failed", { failureCode: "transfer_expired" });
      return;
    default:
      return;
  }
}

/** Confirmations of a landed payout transfer, as they grow (no transition). */
export async function syncPayoutConfirmations(db: Db, intent: OutboundRow): Promise<void> {
  if (intent.purpose !== "payout" || !intent.causeId) return;
  await execute(
    db,
    "update payouts set confirmations = $2, updated_at = now() where id = $1 and status = 'processing'",
    [intent.causeId, intent.confirmations],
  );
}
