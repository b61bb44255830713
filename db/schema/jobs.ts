import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The job runners alive now: each worker process records the ids of its graphile-worker workers and refreshes
 * `heartbeat_at`. A job locked by an id without a recent heartbeat belonged to a process that died (SIGKILL,
 * OOM, a lost machine); lib/platform/jobs/job-runner-liveness.ts frees it instead of graphile-worker's 4-hour wait.
 */
export const jobRunners = pgTable(
  "job_runners",
  {
    workerId: text("worker_id").primaryKey(),
    /** The process, for the operator: host and pid. */
    process: text("process").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("job_runners_heartbeat_idx").on(t.heartbeatAt)],
);
