/**
 * Every background job, by name: what it does and, for periodic ones, its schedule (graphile-worker
 * crontab syntax). Handlers live in jobs/handlers/<name>.ts and call domain functions in lib/.
 * Jobs are enqueued with lib/jobs/enqueue-job.ts inside the caller's transaction.
 */
export const JOBS = {
  expire_idempotency_keys: {
    description: "Deletes Idempotency-Key records older than 24 hours.",
    cron: "*/10 * * * *",
  },
  deliver_event: { description: "First signed delivery attempts of an event to all its endpoints, in parallel." },
  deliver_webhook: { description: "One signed retry of a delivery; schedules the next on failure." },
  redeliver_stalled_webhooks: {
    description: "Re-enqueues webhook deliveries whose worker died mid-attempt.",
    cron: "* * * * *",
  },
  expire_payment: {
    description:
      "Expires one payment with no network chosen at its expires_at (one with a network: once its chain's watcher has read that far).",
  },
  expire_overdue_payments: {
    description: "Expires payments whose chain watcher has not done so 10 minutes after expires_at.",
    cron: "* * * * *",
  },
  prune_rate_limit_buckets: {
    description: "Deletes idle sliding-window rate-limit buckets (Postgres store).",
    cron: "*/5 * * * *",
  },
} as const satisfies Record<string, { description: string; cron?: string }>;

export type JobName = keyof typeof JOBS;

/** The crontab graphile-worker runs; `?max=1` so a worker that was down does not replay missed sweeps. */
export function crontab(): string {
  return Object.entries(JOBS as Record<string, { cron?: string }>)
    .filter(([, def]) => def.cron)
    .map(([name, def]) => `${def.cron} ${name} ?max=1&jobKey=${name}`)
    .join("\n");
}
