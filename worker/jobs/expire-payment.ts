import { getDb } from "@/lib/db/client";
import { expirePaymentIfDue } from "@/lib/payments/expire-payment";
import * as contracts from "@/lib/jobs/contracts";
import { defineJob } from "@/lib/jobs/define-job";

export const expirePaymentJob = defineJob(contracts.expirePayment, async ({ paymentId }) => {
  await expirePaymentIfDue(getDb(), paymentId);
});
