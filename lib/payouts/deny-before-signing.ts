import type { Db } from "@/lib/db/client";
import type { OutboundRow } from "@/lib/outbound/outbound-row";
import { transitionOutbound } from "@/lib/outbound/transition-outbound";
import { isDenied } from "./deny-list";
import { lockPayout, transitionPayout } from "./transition-payout";

/**
 * The deny-list again, in the transaction that would sign a payout's transfer (an address may have been listed
 * since the payout was queued): a denied payout is `blocked` (refunded, `payout.blocked`) and its transfer given
 * up, never signed. Returns whether it was denied.
 */
export async function denyBeforeSigning(tx: Db, intent: OutboundRow): Promise<boolean> {
  if (intent.purpose !== "payout" || !intent.causeId) return false;
  if (!(await isDenied(tx, intent.chain, intent.toAddress))) return false;
  const payout = await lockPayout(tx, intent.causeId);
  if (payout?.status === "pending") await transitionPayout(tx, payout, "denied", { failureCode: "denied_destination" });
  await transitionOutbound(tx, intent, "given_up", { failure: "the destination is on the deny-list" });
  return true;
}
