import type { OutboundHooks } from "@/lib/money-out/outbound/outbound-hooks";
import { denyBeforeSigning } from "./deny-before-signing";
import { onPayoutTransfer, syncPayoutConfirmations } from "./on-payout-transfer";
import { sanctionedBeforeSigning } from "@/lib/money-out/destinations/sanctions-oracle";

/**
 * A payout's part in its transfer: the sanctions oracle read just before signing, the deny-list checked again
 * in the signing transaction, and the payout moved with each step of its transfer.
 */
export const payoutOutboundHooks: OutboundHooks = {
  screen: sanctionedBeforeSigning,
  refuseSigning: denyBeforeSigning,
  onTransition: onPayoutTransfer,
  onConfirmations: syncPayoutConfirmations,
};
