import type { OutboundHooks } from "@/lib/money-out/outbound/outbound-hooks";
import { denyBeforeSigning } from "./deny-before-signing";
import { onPayoutTransfer, syncPayoutConfirmations } from "./on-payout-transfer";
import { screenBeforeSigning } from "@/lib/money-out/destinations/screen-destination";

/**
 * A payout's part in its transfer: its destination screened just before signing (sanctions oracle, issuer
 * freeze), the deny-list checked again
 * in the signing transaction, and the payout moved with each step of its transfer.
 */
export const payoutOutboundHooks: OutboundHooks = {
  screen: screenBeforeSigning("payout"),
  refuseSigning: denyBeforeSigning,
  onTransition: onPayoutTransfer,
  onConfirmations: syncPayoutConfirmations,
};
