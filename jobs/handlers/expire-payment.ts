import type { Task } from "graphile-worker";
import { getDb } from "@/lib/db/client";
import { expireOverduePayments, expirePaymentIfDue } from "@/lib/payments/expire-payment";

export const expirePaymentTask: Task = async (payload) => {
  await expirePaymentIfDue(getDb(), (payload as { paymentId: string }).paymentId);
};

/** Bounded sweep: at most 10 batches of 500 per run. */
export const expireOverduePaymentsTask: Task = async (_payload, helpers) => {
  let total = 0;
  for (let i = 0; i < 10; i++) {
    const expired = await expireOverduePayments(getDb());
    total += expired;
    if (expired < 500) break;
  }
  if (total > 0) helpers.logger.info(`expired ${total} overdue payments (their chain watcher was behind)`);
};
