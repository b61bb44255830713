import { getDb } from "@/lib/platform/db/client";
import { expireOverduePayments } from "@/lib/money-in/payments/expire-payment";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

// Bounded sweep: at most 10 batches of 500 per run.
export const expireOverduePaymentsJob = defineJob(contracts.expireOverduePayments, async (_payload, helpers) => {
  let total = 0;
  for (let i = 0; i < 10; i++) {
    const expired = await expireOverduePayments(getDb());
    total += expired;
    if (expired < 500) break;
  }
  if (total > 0) helpers.logger.info(`expired ${total} overdue payments (their chain watcher was behind)`);
});
