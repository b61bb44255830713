import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { expirePaymentIfDue } from "@/lib/payments/expire-payment";
import { defineJob } from "../define-job";

export const expirePaymentJob = defineJob({
  name: "expire_payment",
  description:
    "Expires one payment with no network chosen at its expires_at (one with a network: once its chain's watcher has read that far).",
  payload: z.object({ paymentId: z.string() }),
  handler: async ({ paymentId }) => {
    await expirePaymentIfDue(getDb(), paymentId);
  },
});
