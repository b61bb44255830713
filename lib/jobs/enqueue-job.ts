import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import type { JobName } from "@/jobs/definitions";

export interface EnqueueOptions {
  runAt?: Date;
  /** Deduplicates: a pending job with the same key is replaced instead of added twice. */
  jobKey?: string;
  maxAttempts?: number;
}

/**
 * Adds a job with graphile-worker's SQL API on `db`, which is usually the caller's transaction: the job
 * exists if and only if the state change that caused it commits.
 */
export async function enqueueJob(db: Db, name: JobName, payload: Record<string, unknown> = {}, opts: EnqueueOptions = {}): Promise<string> {
  const res = await db.execute<{ id: string }>(sql`
    select (graphile_worker.add_job(
      identifier => ${name},
      payload => ${JSON.stringify(payload)}::json,
      run_at => ${opts.runAt?.toISOString() ?? null}::timestamptz,
      job_key => ${opts.jobKey ?? null},
      max_attempts => ${opts.maxAttempts ?? null}::int
    )).id::text as id`);
  return res.rows[0]!.id;
}
