import { Logger, parseCrontab, run, type Runner } from "graphile-worker";
import type pg from "pg";
import { config } from "@/lib/config/env";
import { log } from "@/lib/log";
import { jobRunnerLiveness } from "./job-runner-liveness";
import { crontab, taskList } from "./task-list";

const logger = new Logger((scope) => (level, message, meta) => {
  const fields = { scope: scope.label, task: scope.taskIdentifier, job: scope.jobId, ...(meta ?? {}) };
  if (level === "error") log.error(message, fields);
  else if (level === "warning") log.warn(message, fields);
  else log.debug(message, fields);
});

export interface JobRunner {
  /** An orderly stop: running jobs finish, then this process's heartbeat rows go. */
  stop(): Promise<void>;
  promise: Runner["promise"];
}

/**
 * Starts the job runner: the task list, the periodic jobs, heartbeats that free a dead process's jobs
 * (job-runner-liveness.ts), and signal handling left to the caller.
 */
export async function startWorker(pool: pg.Pool, opts: { concurrency?: number } = {}): Promise<JobRunner> {
  const liveness = jobRunnerLiveness(pool, config().jobLockRecoverySeconds);
  const runner = await run({
    pgPool: pool,
    taskList,
    parsedCronItems: parseCrontab(crontab()),
    // Deliveries spend most of their time waiting on receivers, so a worker runs many at once.
    concurrency: opts.concurrency ?? config().workerConcurrency,
    noHandleSignals: true,
    // Scheduled retries are found by polling: 500 ms keeps them within the ±1 s of their schedule.
    pollInterval: 500,
    logger,
    events: liveness.events,
  });
  liveness.start();
  return {
    promise: runner.promise,
    async stop() {
      await runner.stop();
      await liveness.stop();
    },
  };
}
