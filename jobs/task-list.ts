import type { TaskList } from "graphile-worker";
import type { JobName } from "./definitions";
import { deliverEventTask, deliverWebhookTask } from "./handlers/deliver-webhook";
import { expireIdempotencyKeysTask } from "./handlers/expire-idempotency-keys";
import { redeliverStalledWebhooksTask } from "./handlers/redeliver-stalled-webhooks";
import { pruneRateLimitBucketsTask } from "./handlers/prune-rate-limit-buckets";
import { expireOverduePaymentsTask, expirePaymentTask } from "./handlers/expire-payment";

export const taskList: Record<JobName, TaskList[string]> = {
  expire_idempotency_keys: expireIdempotencyKeysTask,
  deliver_event: deliverEventTask,
  deliver_webhook: deliverWebhookTask,
  redeliver_stalled_webhooks: redeliverStalledWebhooksTask,
  expire_payment: expirePaymentTask,
  expire_overdue_payments: expireOverduePaymentsTask,
  prune_rate_limit_buckets: pruneRateLimitBucketsTask,
};
