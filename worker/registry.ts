import { applyRefundPolicyJob } from "./jobs/apply-refund-policy";
import { deliverEventJob } from "./jobs/deliver-event";
import { deliverWebhookJob } from "./jobs/deliver-webhook";
import { expireIdempotencyKeysJob } from "./jobs/expire-idempotency-keys";
import { expireOverduePaymentsJob } from "./jobs/expire-overdue-payments";
import { executePayoutJob } from "./jobs/execute-payout";
import { executeRefundJob } from "./jobs/execute-refund";
import { expireRefundClaimJob } from "./jobs/expire-refund-claim";
import { expirePaymentJob } from "./jobs/expire-payment";
import { planSweepsJob } from "./jobs/plan-sweeps";
import { notifySignInFailuresJob } from "./jobs/notify-sign-in-failures";
import { pruneExpiredRecordsJob } from "./jobs/prune-expired-records";
import { reconcileCustodyJob } from "./jobs/reconcile-custody";
import { refillDepositAddressPoolJob } from "./jobs/refill-deposit-address-pool";
import { redeliverStalledWebhooksJob } from "./jobs/redeliver-stalled-webhooks";

/**
 * Every background job with its handler (docs/ARCHITECTURE.md, "Where to add"): the worker's task list and
 * crontab (task-list.ts) derive from this list, which must hold one job per contract in lib/platform/jobs/contracts.ts
 * (checked when the task list loads).
 */
export const JOBS = [
  deliverEventJob,
  deliverWebhookJob,
  redeliverStalledWebhooksJob,
  expirePaymentJob,
  expireOverduePaymentsJob,
  expireIdempotencyKeysJob,
  pruneExpiredRecordsJob,
  refillDepositAddressPoolJob,
  planSweepsJob,
  executePayoutJob,
  executeRefundJob,
  applyRefundPolicyJob,
  expireRefundClaimJob,
  reconcileCustodyJob,
  notifySignInFailuresJob,
] as const;
