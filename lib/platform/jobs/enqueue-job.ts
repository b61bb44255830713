import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { JobName, JobPayload } from "./contracts";

export interface EnqueueOptions {
  runAt?: Date;
  /** Deduplicates: a pending job with the same key is replaced instead of added twice. */
  jobKey?: string;
  maxAttempts?: number;
}

/**
 * Adds a job with graphile-worker's SQL API on `db`, which is usually the caller's transaction: the job
 * exists if and only if the state change that caused it commits. The payload is typed by the job's schema
 * here and validated against it when the job runs (task-list.ts).
 */
export async function enqueueJob<Name extends JobName>(
  db: Db,
  name: Name,
  payload: JobPayload<Name>,
  opts: EnqueueOptions = {},
): Promise<string> {
  const [row] = await query<{ id: string }>(
    db,
    `select (graphile_worker.add_job(identifier => $1, payload => $2::json, run_at => $3::timestamptz,
       job_key => $4, max_attempts => $5::int)).id::text as id`,
    [name, JSON.stringify(payload), opts.runAt ?? null, opts.jobKey ?? null, opts.maxAttempts ?? null],
  );
  return row!.id;
}
