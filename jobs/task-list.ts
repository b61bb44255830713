import type { TaskList } from "graphile-worker";
import type { JobName } from "./definitions";
import { deliverWebhookTask } from "./handlers/deliver-webhook";
import { expireIdempotencyKeysTask } from "./handlers/expire-idempotency-keys";
import { pruneRateLimitBucketsTask } from "./handlers/prune-rate-limit-buckets";

export const taskList: Record<JobName, TaskList[string]> = {
  expire_idempotency_keys: expireIdempotencyKeysTask,
  deliver_webhook: deliverWebhookTask,
  prune_rate_limit_buckets: pruneRateLimitBucketsTask,
};
