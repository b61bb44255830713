import { Logger, parseCrontab, run, type Runner } from "graphile-worker";
import type pg from "pg";
import { crontab } from "@/jobs/definitions";
import { taskList } from "@/jobs/task-list";
import { log } from "@/lib/log";

const logger = new Logger((scope) => (level, message, meta) => {
  const fields = { scope: scope.label, task: scope.taskIdentifier, job: scope.jobId, ...(meta ?? {}) };
  if (level === "error") log.error(message, fields);
  else if (level === "warning") log.warn(message, fields);
  else log.debug(message, fields);
});

/** Starts the job runner: the task list, the periodic jobs, and signal handling left to the caller. */
export function startWorker(pool: pg.Pool, opts: { concurrency?: number } = {}): Promise<Runner> {
  return run({
    pgPool: pool,
    taskList,
    parsedCronItems: parseCrontab(crontab()),
    concurrency: opts.concurrency ?? 5,
    noHandleSignals: true,
    pollInterval: 1000,
    logger,
  });
}
