import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/**
 * Counts PostgreSQL's checkpoints so far: one flushing a run's writes slows every commit (and read) on a
 * machine's one disk, so a fixed-rate case prints how many fell inside it. PostgreSQL 17 moved the counters
 * from pg_stat_bgwriter to pg_stat_checkpointer.
 */
export async function checkpointCounter(db: Db): Promise<() => Promise<number>> {
  const [row] = await query<{ v: number }>(db, "select current_setting('server_version_num')::int as v");
  const sql =
    row!.v >= 170000
      ? "select (num_timed + num_requested)::int as n from pg_stat_checkpointer"
      : "select (checkpoints_timed + checkpoints_req)::int as n from pg_stat_bgwriter";
  return async () => (await query<{ n: number }>(db, sql))[0]!.n;
}
