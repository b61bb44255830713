import { z } from "zod";
import { CHAIN_FAMILIES, CHAINS, POOL_PURPOSES } from "@/lib/kernel/chain-ids";
import { MODES } from "@/lib/kernel/mode";
import { defineJobContract } from "./define-job";

// Every background job's contract: its name, what it does, its payload schema and, when periodic, its
// schedule. `enqueueJob` is typed by these and the worker gives each its handler (worker/jobs/), so domain
// code that queues a job depends on this leaf only, never on the handlers (which call domain code).

export const deliverEvent = defineJobContract({
  name: "deliver_event",
  description: "First signed delivery attempts of an event to all its endpoints, in parallel.",
  payload: z.object({ eventId: z.string() }),
});

export const deliverWebhook = defineJobContract({
  name: "deliver_webhook",
  description: "One signed retry of a delivery; schedules the next on failure.",
  payload: z.object({ deliveryId: z.string() }),
});

export const executePayout = defineJobContract({
  name: "execute_payout",
  description:
    "Takes a pending payout one step: blocked (deny-list), held for review (policy), queued for the " +
    "outbound engine, or waiting for treasury liquidity (asks for sweeps and retries).",
  payload: z.object({ payout_id: z.string().startsWith("pay_out_") }),
});

export const executeRefund = defineJobContract({
  name: "execute_refund",
  description:
    "Takes a pending refund one step: failed (deny-list, sanctions), queued for the outbound engine from the " +
    "treasury, or waiting for treasury liquidity (asks for sweeps and retries).",
  payload: z.object({ refund_id: z.string().startsWith("re_") }),
});

export const applyRefundPolicy = defineJobContract({
  name: "apply_refund_policy",
  description:
    "After money beyond a payment was credited (overpaid, or after expiry): opens the claim refund the " +
    "merchant's refund policy asks for, once.",
  payload: z.object({ payment_id: z.string().min(1) }),
});

export const expireRefundClaim = defineJobContract({
  name: "expire_refund_claim",
  description: "At the end of a refund's claim window: cancels it if the payer gave no address.",
  payload: z.object({ refund_id: z.string().startsWith("re_") }),
});

export const expireIdempotencyKeys = defineJobContract({
  name: "expire_idempotency_keys",
  description: "Deletes Idempotency-Key records older than 24 hours.",
  payload: z.object({}),
  cron: "*/10 * * * *",
});

export const expireOverduePayments = defineJobContract({
  name: "expire_overdue_payments",
  description: "Expires payments whose chain watcher has not done so 10 minutes after expires_at.",
  payload: z.object({}),
  cron: "* * * * *",
});

export const expirePayment = defineJobContract({
  name: "expire_payment",
  description:
    "Expires one payment with no network chosen at its expires_at (one with a network: " +
    "once its chain's watcher has read that far).",
  payload: z.object({ paymentId: z.string() }),
});

export const notifySignInFailures = defineJobContract({
  name: "notify_sign_in_failures",
  description:
    "Emails a dashboard user that someone reached the failed sign-in " +
    "limit on their account (queued with the audit entry, at most hourly).",
  payload: z.object({
    user_id: z.string(),
    kind: z.enum(["password", "code", "passkey"]),
    failures: z.number().int(),
    client: z.string(),
    at: z.string(),
  }),
});

export const planSweeps = defineJobContract({
  name: "plan_sweeps",
  description:
    "Plans sweeps of deposit addresses at or above their chain's threshold into the treasury (every " +
    "minute, per enabled mode and chain); with need_units, at once and whatever the threshold, until that " +
    "much USDT is on its way.",
  payload: z.object({
    mode: z.enum(MODES).optional(),
    chain: z.enum(CHAINS).optional(),
    need_units: z.string().regex(/^\d+$/).optional(),
  }),
  cron: "* * * * *",
});

// Named prune_rate_limit_buckets until it pruned more than buckets; the old name is in retired-jobs.ts.
export const pruneExpiredRecords = defineJobContract({
  name: "prune_expired_records",
  description:
    "Deletes idle sliding-window rate-limit buckets (Postgres store), and dashboard sign-in attempts and " +
    "finished session rows past their 30 days.",
  payload: z.object({}),
  cron: "*/5 * * * *",
});

export const reconcileCustody = defineJobContract({
  name: "reconcile_custody",
  description:
    "Reconciles each enabled (mode, chain)'s USDT on chain with the custody books and what merchants are " +
    "owed (every 5 minutes); logs an error on a shortfall, a negative unmatched amount, a treasury or " +
    "sweeper short of native gas, or inconsistent custody books.",
  payload: z.object({ mode: z.enum(MODES).optional(), chain: z.enum(CHAINS).optional() }),
  cron: "*/5 * * * *",
});

export const redeliverStalledWebhooks = defineJobContract({
  name: "redeliver_stalled_webhooks",
  description: "Re-enqueues webhook deliveries whose worker died mid-attempt.",
  payload: z.object({}),
  cron: "* * * * *",
});

export const refillDepositAddressPool = defineJobContract({
  name: "refill_deposit_address_pool",
  description:
    "Tops a (mode, family, purpose) address pool up (every pool when none is named; a pool this worker " +
    "cannot derive, say live Solana without the seed, is left alone), then gives payments waiting for an " +
    "address theirs. Asked for by a claim that leaves its pool low, at the worker's start, and every minute.",
  payload: z.object({
    mode: z.enum(MODES).optional(),
    family: z.enum(CHAIN_FAMILIES).optional(),
    purpose: z.enum(POOL_PURPOSES).optional(),
  }),
  cron: "* * * * *",
});

export const JOB_CONTRACTS = [
  applyRefundPolicy,
  deliverEvent,
  deliverWebhook,
  executePayout,
  executeRefund,
  expireIdempotencyKeys,
  expireOverduePayments,
  expirePayment,
  expireRefundClaim,
  notifySignInFailures,
  planSweeps,
  pruneExpiredRecords,
  reconcileCustody,
  redeliverStalledWebhooks,
  refillDepositAddressPool,
] as const;

type AnyJobContract = (typeof JOB_CONTRACTS)[number];
export type JobName = AnyJobContract["name"];
/** What `enqueueJob` takes for a job: the input type of its payload schema. */
export type JobPayload<Name extends JobName> = z.input<Extract<AnyJobContract, { name: Name }>["payload"]>;
