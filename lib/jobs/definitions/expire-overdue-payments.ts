import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { expireOverduePayments } from "@/lib/payments/expire-payment";
import { defineJob } from "../define-job";

export const expireOverduePaymentsJob = defineJob({
  name: "expire_overdue_payments",
  description: "Expires payments whose chain watcher has not done so 10 minutes after expires_at.",
  payload: z.object({}),
  cron: "* * * * *",
  // Bounded sweep: at most 10 batches of 500 per run.
  handler: async (_payload, helpers) => {
    let total = 0;
    for (let i = 0; i < 10; i++) {
      const expired = await expireOverduePayments(getDb());
      total += expired;
      if (expired < 500) break;
    }
    if (total > 0) helpers.logger.info(`expired ${total} overdue payments (their chain watcher was behind)`);
  },
});
