import type { z } from "zod";
import { deliverEventJob } from "./definitions/deliver-event";
import { deliverWebhookJob } from "./definitions/deliver-webhook";
import { expireIdempotencyKeysJob } from "./definitions/expire-idempotency-keys";
import { expireOverduePaymentsJob } from "./definitions/expire-overdue-payments";
import { executePayoutJob } from "./definitions/execute-payout";
import { expirePaymentJob } from "./definitions/expire-payment";
import { planSweepsJob } from "./definitions/plan-sweeps";
import { notifySignInFailuresJob } from "./definitions/notify-sign-in-failures";
import { pruneRateLimitBucketsJob } from "./definitions/prune-rate-limit-buckets";
import { reconcileCustodyJob } from "./definitions/reconcile-custody";
import { refillSolanaAddressPoolJob } from "./definitions/refill-solana-address-pool";
import { redeliverStalledWebhooksJob } from "./definitions/redeliver-stalled-webhooks";

/**
 * Every background job (docs/ARCHITECTURE.md, "Adding a job"). The worker's task list and crontab
 * (task-list.ts) and the payload types `enqueueJob` accepts are all derived from this list.
 *
 * Domain code imports `enqueueJob`, which imports only this module's types (`import type`): loading
 * domain code never loads the handlers, so the definitions may import any domain module without a cycle.
 */
export const JOBS = [
  deliverEventJob,
  deliverWebhookJob,
  redeliverStalledWebhooksJob,
  expirePaymentJob,
  expireOverduePaymentsJob,
  expireIdempotencyKeysJob,
  pruneRateLimitBucketsJob,
  refillSolanaAddressPoolJob,
  planSweepsJob,
  executePayoutJob,
  reconcileCustodyJob,
  notifySignInFailuresJob,
] as const;

type RegisteredJob = (typeof JOBS)[number];
export type JobName = RegisteredJob["name"];
/** What `enqueueJob` takes for a job: the input type of its payload schema. */
export type JobPayload<Name extends JobName> = z.input<Extract<RegisteredJob, { name: Name }>["payload"]>;
