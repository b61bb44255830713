import { registerOutboundHooks } from "@/lib/outbound/outbound-hooks";
import { payoutOutboundHooks } from "@/lib/payouts/payout-outbound-hooks";

/** Every domain's hooks into the outbound engine; called by each process that runs it, before it starts. */
export function registerOutboundHooksOfDomains(): void {
  registerOutboundHooks("payout", payoutOutboundHooks);
}
