import { Logger, parseCrontab, run, type Runner, type TaskList } from "graphile-worker";
import type pg from "pg";
import { config } from "@/lib/config/env";
import { log } from "@/lib/log";
import { sleep } from "@/lib/util/sleep";
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
 * free a dead process's jobs (job-runner-liveness.ts), and signal handling left to the caller.
 *
 * graphile-worker never replaces a worker of its pool that stopped because the database failed under it, so
 * each database outage would quietly take capacity away until no job ran at all. When one stops so, the
 * runner is replaced: the old pool finishes what it runs, a new one starts (tried again every few seconds
 * while the database is still down).
 */
export async function startJobRunner(
  pool: pg.Pool,
  jobs: { taskList: TaskList; crontab: string; concurrency?: number },
): Promise<JobRunner> {
  const liveness = jobRunnerLiveness(pool, config().jobLockRecoverySeconds);
  const start = () =>
    run({
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
  let runner: Runner = await start();
  let stopping = false;
  let replacing: Promise<void> | null = null;

  const replace = async () => {
    log.error("a job worker stopped after the database failed under it; starting the job runner anew");
    // Stopping waits for the old pool's running jobs; a database still down may fail it, which changes nothing.
    await runner.stop().catch(() => {});
    while (!stopping) {
      try {
        runner = await start();
        log.warn("job runner started anew");
        return;
      } catch (err) {
        log.error("job runner could not start; trying again in 2 s", { err: String(err) });
        await sleep(2_000);
      }
    }
  };
  liveness.events.on("worker:fatalError", () => {
    if (stopping || replacing) return;
    replacing = replace().finally(() => {
      replacing = null;
    });
  });
  liveness.start();
  return {
    async stop() {
      stopping = true;
      await replacing;
      await runner.stop();
      await liveness.stop();
    },
  };
}
