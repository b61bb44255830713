import { z } from "zod";
import { expireIdempotencyKeys } from "@/lib/api/idempotency";
import { getDb } from "@/lib/db/client";
import { defineJob } from "../define-job";

export const expireIdempotencyKeysJob = defineJob({
  name: "expire_idempotency_keys",
  description: "Deletes Idempotency-Key records older than 24 hours.",
  payload: z.object({}),
  cron: "*/10 * * * *",
  // Bounded sweep: at most 20 batches per run; the next run continues where this one stopped.
  handler: async (_payload, helpers) => {
    let total = 0;
    for (let i = 0; i < 20; i++) {
      const deleted = await expireIdempotencyKeys(getDb());
      total += deleted;
      if (deleted === 0) break;
    }
    if (total > 0) helpers.logger.info(`expired ${total} idempotency keys`);
  },
});
