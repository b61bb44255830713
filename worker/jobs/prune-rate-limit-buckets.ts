import { getDb, getPool } from "@/lib/db/client";
import { pruneRateLimitBuckets } from "@/lib/rate-limit/postgres-limiter";
import { WINDOW_MS } from "@/lib/rate-limit/policies";
import { pruneSessions } from "@/lib/users/sessions";
import { pruneSignInAttempts } from "@/lib/users/sign-in-limits";
import * as contracts from "@/lib/jobs/contracts";
import { defineJob } from "@/lib/jobs/define-job";

export const pruneRateLimitBucketsJob = defineJob(contracts.pruneRateLimitBuckets, async () => {
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
