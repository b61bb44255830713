import type { Db } from "@/lib/platform/db/client";
import type { OutboundRow } from "@/lib/money-out/outbound/outbound-row";
import { transitionOutbound } from "@/lib/money-out/outbound/transition-outbound";
import { denialOf } from "@/lib/money-out/destinations/deny-list";
import { type DestinationScreening, UNSCREENED } from "@/lib/money-out/destinations/screen-destination";
import { PAYOUT_FAILURE_CODES } from "./payout-lifecycle";
import { lockPayout, transitionPayout } from "./transition-payout";

/**
 * The deny-list again, in the transaction that would sign a payout's transfer (an address may have been listed
 * since the payout was queued), with the sanctions oracle's and the issuer freeze's answers read just before
 * that transaction (screen-destination.ts): a denied
 * payout is `blocked` (refunded, `payout.blocked`) and its transfer given up, never signed. Returns whether it
 * was denied.
 */
export async function denyBeforeSigning(
  tx: Db,
  intent: OutboundRow,
  screening: DestinationScreening = UNSCREENED,
): Promise<boolean> {
  if (intent.purpose !== "payout" || !intent.causeId) return false;
  const failureCode = await denialOf(tx, intent.chain, intent.toAddress, screening);
  if (!failureCode) return false;
  const payout = await lockPayout(tx, intent.causeId);
  if (payout?.status === "pending") await transitionPayout(tx, payout, "denied", { failureCode });
  await transitionOutbound(tx, intent, "given_up", { failure: PAYOUT_FAILURE_CODES[failureCode] });
  return true;
}
