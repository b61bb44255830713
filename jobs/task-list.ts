import type { TaskList } from "graphile-worker";
import type { JobName } from "./definitions";
import { expireIdempotencyKeysTask } from "./handlers/expire-idempotency-keys";
import { pruneRateLimitBucketsTask } from "./handlers/prune-rate-limit-buckets";

export const taskList: Record<JobName, TaskList[string]> = {
  expire_idempotency_keys: expireIdempotencyKeysTask,
  prune_rate_limit_buckets: pruneRateLimitBucketsTask,
};
