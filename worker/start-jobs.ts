import type pg from "pg";
import { type JobRunner, startJobRunner } from "@/lib/platform/jobs/job-runner";
import { crontab, taskList } from "./task-list";

export type { JobRunner };

/** Starts this process's job runner with every job's handler and the periodic jobs' schedule. */
export function startWorker(pool: pg.Pool, opts: { concurrency?: number } = {}): Promise<JobRunner> {
  return startJobRunner(pool, { taskList, crontab: crontab(), concurrency: opts.concurrency });
}
