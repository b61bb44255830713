import type { Mode } from "@/lib/kernel/mode";
import { cancelCause } from "@/lib/money-out/transfers/cancel-cause";
import type { Db } from "@/lib/platform/db/client";
import { REFUND_KIND } from "./refund-kind";
import type { RefundRow } from "./refund-row";

/**
 * Cancels a refund before its transfer is signed (`requires_action` or `pending`), in the caller's transaction:
 * the amount goes back to `available` and `refund.canceled` is recorded; a transfer already queued is given up
 * (lib/money-out/transfers/cancel-cause.ts).
 */
export const cancelRefund = (db: Db, owner: { merchantId: string; mode: Mode }, id: string): Promise<RefundRow> =>
  cancelCause(db, REFUND_KIND, owner, id, {
    from: ["requires_action", "pending"],
    trigger: "canceled",
    failureCode: "canceled_by_merchant",
    reason: "The refund was canceled by the merchant.",
  });
