import { denialOf } from "@/lib/money-out/destinations/deny-list";
import {
  type DestinationScreening,
  screenBeforeSigning,
  UNSCREENED,
} from "@/lib/money-out/destinations/screen-destination";
import type { OutboundHooks } from "@/lib/money-out/outbound/outbound-hooks";
import type { OutboundRow } from "@/lib/money-out/outbound/outbound-row";
import { transitionOutbound } from "@/lib/money-out/outbound/transition-outbound";
import type { Db } from "@/lib/platform/db/client";
import { onRefundTransfer, syncRefundConfirmations } from "./on-refund-transfer";
import { REFUND_FAILURE_CODES } from "./refund-lifecycle";
import { lockRefund, transitionRefund } from "./transition-refund";

/**
 * The deny-list again, in the transaction that would sign (an address may have been listed since the refund was
 * queued), with the destination's screening (sanctioned, frozen by the issuer): a denied refund fails (`refund.failed`,
 * the amount back in `available`) and its transfer is given up, never signed.
 */
async function refuseRefundSigning(
  tx: Db,
  intent: OutboundRow,
  screening: DestinationScreening = UNSCREENED,
): Promise<boolean> {
  if (intent.purpose !== "refund" || !intent.causeId) return false;
  const failureCode = await denialOf(tx, intent.chain, intent.toAddress, screening);
  if (!failureCode) return false;
  const refund = await lockRefund(tx, intent.causeId);
  if (refund?.status === "pending") await transitionRefund(tx, refund, "denied", { failureCode });
  await transitionOutbound(tx, intent, "given_up", { failure: REFUND_FAILURE_CODES[failureCode] });
  return true;
}

/** A refund's part in its transfer, as a payout's is (lib/money-out/payouts/payout-outbound-hooks.ts). */
export const refundOutboundHooks: OutboundHooks = {
  screen: screenBeforeSigning("refund"),
  refuseSigning: refuseRefundSigning,
  onTransition: onRefundTransfer,
  onConfirmations: syncRefundConfirmations,
};
