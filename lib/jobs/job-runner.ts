import { Logger, parseCrontab, run, type Runner, type TaskList } from "graphile-worker";
import type pg from "pg";
import { config } from "@/lib/config/env";
import { log } from "@/lib/log";
import { jobRunnerLiveness } from "./job-runner-liveness";

const logger = new Logger((scope) => (level, message, meta) => {
  const fields = { scope: scope.label, task: scope.taskIdentifier, job: scope.jobId, ...(meta ?? {}) };
  if (level === "error") log.error(message, fields);
  else if (level === "warning") log.warn(message, fields);
  else log.debug(message, fields);
});

export interface JobRunner {
  /** An orderly stop: running jobs finish, then this process's heartbeat rows go. */
  stop(): Promise<void>;
}

/**
 * Starts the job runner for a task list and crontab (the worker's, worker/task-list.ts): heartbeats that
 * free a dead process's jobs, and the jobs of a worker the database failed under (job-runner-liveness.ts),
 * and signal handling left to the caller.
 */
export async function startJobRunner(
  pool: pg.Pool,
  jobs: { taskList: TaskList; crontab: string; concurrency?: number },
): Promise<JobRunner> {
  const liveness = jobRunnerLiveness(pool, config().jobLockRecoverySeconds);
  const runner: Runner = await run({
    pgPool: pool,
    taskList: jobs.taskList,
    parsedCronItems: parseCrontab(jobs.crontab),
    // Deliveries spend most of their time waiting on receivers, so a worker runs many at once.
    concurrency: jobs.concurrency ?? config().workerConcurrency,
    noHandleSignals: true,
    // Scheduled retries are found by polling: 500 ms keeps them within the ±1 s of their schedule.
    pollInterval: 500,
    logger,
    events: liveness.events,
  });
  liveness.start();
  return {
    async stop() {
      await runner.stop();
      await liveness.stop();
    },
  };
}
