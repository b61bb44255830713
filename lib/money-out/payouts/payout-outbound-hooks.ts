import type { OutboundHooks } from "@/lib/money-out/outbound/outbound-hooks";
import { causeHooks, type TransferCause } from "@/lib/money-out/transfers/cause-hooks";
import type { PayoutRow } from "./payout-row";
import { lockPayout, transitionPayout } from "./transition-payout";

/** A payout as the cause of a treasury transfer: settled, it records `confirmed_at` (`payout.confirmed`). */
export const PAYOUT_CAUSE: TransferCause<PayoutRow> = {
  purpose: "payout",
  table: "payouts",
  lock: lockPayout,
  transition: (tx, payout, trigger, { settledAt, ...fields }) =>
    transitionPayout(tx, payout, trigger, settledAt ? { ...fields, confirmedAt: settledAt } : fields),
};

/** A payout's part in its transfer, as every cause's (lib/money-out/transfers/cause-hooks.ts). */
export const payoutOutboundHooks: OutboundHooks = causeHooks(PAYOUT_CAUSE);
