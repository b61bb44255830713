import { createPayment, expire, payUntil, type Triggered, type TriggerRun } from "./trigger-payments";
import { freshAddress, payOut, payOutFrozen } from "./trigger-payouts";

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
  "payout.confirmed": {
    does: "a confirmed payment, then a 1 USDT payout to a fresh address",
    run: (run) => payOut(run, freshAddress(run.chain), "confirmed"),
  },
  "payout.failed": {
    does: "the same, to an address frozen first (scope sandbox:chains)",
    run: payOutFrozen,
  },
};
