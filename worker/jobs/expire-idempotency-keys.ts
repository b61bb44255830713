import { expireIdempotencyKeys } from "@/lib/platform/idempotency/idempotency-keys";
import { getDb } from "@/lib/platform/db/client";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

// Bounded sweep: at most 20 batches per run; the next run continues where this one stopped.
export const expireIdempotencyKeysJob = defineJob(contracts.expireIdempotencyKeys, async (_payload, helpers) => {
  let total = 0;
  for (let i = 0; i < 20; i++) {
    const deleted = await expireIdempotencyKeys(getDb());
    total += deleted;
    if (deleted === 0) break;
  }
  if (total > 0) helpers.logger.info(`expired ${total} idempotency keys`);
});
