import { causeHooks } from "@/lib/money-out/transfers/cause-hooks";
import { causeRows } from "@/lib/money-out/transfers/move-cause";
import type { TransferKind } from "@/lib/money-out/transfers/transfer-kind";
import { PAYOUT_FAILURE_CODES, PAYOUT_LIFECYCLE, type PayoutFailureCode, type PayoutTrigger } from "./payout-lifecycle";
import { type PayoutRow, payoutRow } from "./payout-row";
import { serializePayout } from "./serialize-payout";

/** A payout as a kind of money out (lib/money-out/transfers): settled, it records `confirmed_at`. */
export const PAYOUT_KIND: TransferKind<PayoutRow, PayoutTrigger, PayoutFailureCode> = {
  purpose: "payout",
  table: "payouts",
  rows: payoutRow,
  lifecycle: PAYOUT_LIFECYCLE,
  failureMessages: PAYOUT_FAILURE_CODES,
  serialize: serializePayout,
  settledAtColumn: "confirmed_at",
};

/** Its rows as its own code reads, locks and moves them. */
export const { get: getPayout, lock: lockPayout, move: transitionPayout } = causeRows(PAYOUT_KIND);

/** A payout's part in its transfer, as every kind's (lib/money-out/transfers/cause-hooks.ts). */
export const payoutOutboundHooks = causeHooks(PAYOUT_KIND);
