import { getDb } from "@/lib/platform/db/client";
import { expirePaymentIfDue } from "@/lib/money-in/payments/expire-payment";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

export const expirePaymentJob = defineJob(contracts.expirePayment, async ({ paymentId }) => {
  await expirePaymentIfDue(getDb(), paymentId);
});
