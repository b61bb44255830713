import { getDb, getPool } from "@/lib/platform/db/client";
import { pruneRateLimitBuckets } from "@/lib/platform/rate-limit/postgres-limiter";
import { WINDOW_MS } from "@/lib/platform/rate-limit/policies";
import { pruneSessions } from "@/lib/identity/users/sessions";
import { pruneSignInAttempts } from "@/lib/identity/users/sign-in-limits";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

export const pruneExpiredRecordsJob = defineJob(contracts.pruneExpiredRecords, async () => {
  for (let i = 0; i < 20; i++) {
    if ((await pruneRateLimitBuckets(getPool(), 2 * WINDOW_MS)) === 0) break;
  }
  for (let i = 0; i < 20; i++) {
    if ((await pruneSignInAttempts(getDb())) === 0) break;
  }
  for (let i = 0; i < 20; i++) {
    if ((await pruneSessions(getDb())) === 0) break;
  }
});
