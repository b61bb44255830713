import { z } from "zod";
import { getDb, getPool } from "@/lib/db/client";
import { pruneRateLimitBuckets } from "@/lib/rate-limit/postgres-limiter";
import { WINDOW_MS } from "@/lib/rate-limit/policies";
import { pruneSessions } from "@/lib/users/sessions";
import { pruneSignInAttempts } from "@/lib/users/sign-in-limits";
import { defineJob } from "../define-job";

export const pruneRateLimitBucketsJob = defineJob({
  name: "prune_rate_limit_buckets",
  description:
    "Deletes idle sliding-window rate-limit buckets (Postgres store), and dashboard sign-in attempts and finished session rows past their 30 days.",
  payload: z.object({}),
  cron: "*/5 * * * *",
  handler: async () => {
    for (let i = 0; i < 20; i++) {
      if ((await pruneRateLimitBuckets(getPool(), 2 * WINDOW_MS)) === 0) break;
    }
    for (let i = 0; i < 20; i++) {
      if ((await pruneSignInAttempts(getDb())) === 0) break;
    }
    for (let i = 0; i < 20; i++) {
      if ((await pruneSessions(getDb())) === 0) break;
    }
  },
});
