import type { OutboundHooks } from "@/lib/money-out/outbound/outbound-hooks";
import { causeHooks, type TransferCause } from "@/lib/money-out/transfers/cause-hooks";
import type { RefundRow } from "./refund-row";
import { lockRefund, transitionRefund } from "./transition-refund";

/** A refund as the cause of a treasury transfer: settled, it records `succeeded_at` (`refund.succeeded`). */
export const REFUND_CAUSE: TransferCause<RefundRow> = {
  purpose: "refund",
  table: "refunds",
  lock: lockRefund,
  transition: (tx, refund, trigger, { settledAt, ...fields }) =>
    transitionRefund(tx, refund, trigger, settledAt ? { ...fields, succeededAt: settledAt } : fields),
};

/** A refund's part in its transfer, as every cause's (lib/money-out/transfers/cause-hooks.ts). */
export const refundOutboundHooks: OutboundHooks = causeHooks(REFUND_CAUSE);
