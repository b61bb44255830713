import type { Task } from "graphile-worker";
import { getPool } from "@/lib/db/client";
import { pruneRateLimitBuckets } from "@/lib/rate-limit/postgres-limiter";
import { WINDOW_MS } from "@/lib/rate-limit/policies";

export const pruneRateLimitBucketsTask: Task = async () => {
  for (let i = 0; i < 20; i++) {
    if ((await pruneRateLimitBuckets(getPool(), 2 * WINDOW_MS)) === 0) break;
  }
};
