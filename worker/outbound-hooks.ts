import { registerOutboundHooks } from "@/lib/money-out/outbound/outbound-hooks";
import { payoutBatchOutboundHooks } from "@/lib/money-out/payouts/execute-payout";
import { payoutOutboundHooks } from "@/lib/money-out/payouts/payout-kind";
import { refundOutboundHooks } from "@/lib/money-out/refunds/refund-kind";

/** Every domain's hooks into the outbound engine; called by each process that runs it, before it starts. */
export function registerOutboundHooksOfDomains(): void {
  registerOutboundHooks("payout", payoutOutboundHooks);
  registerOutboundHooks("payout_batch", payoutBatchOutboundHooks);
  registerOutboundHooks("refund", refundOutboundHooks);
}
