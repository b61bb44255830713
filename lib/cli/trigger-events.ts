import { createPayment, expire, payUntil, type Triggered, type TriggerRun } from "./trigger-payments";
import { freshAddress } from "@/lib/chains/addresses/fresh-address";
import { payOut, payOutBlocked, payOutFrozen } from "./trigger-payouts";
import { depositConfirmed, depositPending, depositReversed } from "./trigger-deposits";
import { refundCanceled, refundFailed, refundSucceeded, refundToClaim } from "./trigger-refunds";

export type { Triggered, TriggerRun } from "./trigger-payments";

/** The events `trigger` makes happen, each with what it does. */
export const TRIGGERS: Record<string, { does: string; run: (run: TriggerRun) => Promise<Triggered> }> = {
  "payment.awaiting_payment": {
    does: "creates a payment",
    run: async (run) => ({ object: "payment", id: (await createPayment(run)).id }),
  },
  ...Object.fromEntries(
    ["pending", "confirming", "confirmed"].map((status) => [
      `payment.${status}`,
      {
        does: `creates a payment, pays it (simulate) and mines until ${status}`,
        run: async (run: TriggerRun): Promise<Triggered> => {
          const payment = await createPayment(run);
          await payUntil(run, payment, status);
          return { object: "payment", id: payment.id };
        },
      },
    ]),
  ),
  "payment.expired": { does: "creates a payment expiring in 60 s; waits ~70 s", run: expire },
  "deposit.pending": { does: "creates a deposit address and sends it 2 USDT (simulate)", run: depositPending },
  "deposit.confirmed": { does: "the same, then mines until it is credited", run: depositConfirmed },
  "deposit.reversed": {
    does: "the same, then reorganizes its block away (scope sandbox:chains)",
    run: depositReversed,
  },
  "payout.confirmed": {
    does: "a confirmed payment, then a 1 USDT payout to a fresh address",
    run: (run) => payOut(run, freshAddress(run.chain), "confirmed"),
  },
  "payout.failed": {
    does: "the same, to an address frozen first, which fails on chain: bnb or polygon (scope sandbox:chains)",
    run: payOutFrozen,
  },
  "payout.blocked": {
    does: "the same, to an address frozen first, seen before signing: eth, tron or solana (scope sandbox:chains)",
    run: payOutBlocked,
  },
  ...Object.fromEntries(
    ["refund.created", "refund.requires_action"].map((event) => [
      event,
      { does: "a confirmed payment, then a 1 USDT refund to the payer's claim page", run: refundToClaim },
    ]),
  ),
  "refund.canceled": { does: "the same, then canceled (the amount back to the balance)", run: refundCanceled },
  "refund.succeeded": {
    does: "a confirmed payment, then a 1 USDT refund to a fresh address",
    run: refundSucceeded,
  },
  "refund.failed": {
    does: "the same, to an address frozen first, which fails on chain: bnb or polygon (scope sandbox:chains)",
    run: refundFailed,
  },
};
