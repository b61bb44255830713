import type pg from "pg";

/**
 * Job names this release no longer handles (a renamed job keeps its old name here). graphile-worker never
 * fetches a job whose task no worker supports, so a job queued under an old name by the previous release
 * would wait for ever, and its cron bookkeeping row would stay.
 */
export const RETIRED_JOB_NAMES = ["prune_rate_limit_buckets", "refill_solana_address_pool"] as const;

/** Data migration (run at every start, after graphile-worker's own): removes what the retired jobs left queued. */
export async function removeRetiredJobs(client: pg.PoolClient): Promise<void> {
  const names = [...RETIRED_JOB_NAMES];
  await client.query(
    `delete from graphile_worker._private_jobs
      where task_id in (select id from graphile_worker._private_tasks where identifier = any($1::text[]))`,
    [names],
  );
  await client.query("delete from graphile_worker._private_known_crontabs where identifier = any($1::text[])", [names]);
}
