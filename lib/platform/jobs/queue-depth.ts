import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/** The job queue by task: ready to run now, scheduled for later, running (locked by a worker). */
export function readQueueDepth(db: Db) {
  return query<{ task: string; ready: number; scheduled: number; running: number }>(
    db,
    `select task_identifier as task,
            count(*) filter (where locked_at is null and run_at <= now())::int as ready,
            count(*) filter (where locked_at is null and run_at > now())::int as scheduled,
            count(*) filter (where locked_at is not null)::int as running
       from graphile_worker.jobs group by task_identifier`,
  );
}
