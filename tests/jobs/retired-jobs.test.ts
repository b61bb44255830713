import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { JOB_CONTRACTS } from "@/lib/platform/jobs/contracts";
import { RETIRED_JOB_NAMES, removeRetiredJobs } from "@/lib/platform/jobs/retired-jobs";
import { createTestDatabase } from "../setup/test-database";

describe("retired job names", () => {
  it("none is a current job's name", () => {
    const current = JOB_CONTRACTS.map((c) => c.name as string);
    expect(RETIRED_JOB_NAMES.filter((name) => current.includes(name))).toEqual([]);
  });

  it(
    "an upgrade removes the jobs and the cron row the old release " + "left under a retired name, and nothing else",
    async () => {
      const database = await createTestDatabase(process.cwd());
      const client = new pg.Client({ connectionString: database.url });
      try {
        await migrateDatabase(database.url);
        await client.connect();
        // What the previous release leaves: its cron's queued run and bookkeeping row, beside a current job's.
        await client.query(
          "select graphile_worker.add_job('prune_rate_limit_buckets', " +
            "'{}'::json, job_key := 'prune_rate_limit_buckets')",
        );
        await client.query("select graphile_worker.add_job('plan_sweeps', '{}'::json)");
        await client.query(
          `insert into graphile_worker._private_known_crontabs (identifier, known_since, last_execution)
         values ('prune_rate_limit_buckets', now(), now()), ('plan_sweeps', now(), now())`,
        );
        const queued = async () =>
          (
            await client.query(
              `select t.identifier from graphile_worker._private_jobs j
               join graphile_worker._private_tasks t on t.id = j.task_id order by 1`,
            )
          ).rows.map((r) => r.identifier);
        const crons = async () =>
          (await client.query("select identifier from graphile_worker._private_known_crontabs order by 1")).rows.map(
            (r) => r.identifier,
          );
        expect(await queued()).toEqual(["plan_sweeps", "prune_rate_limit_buckets"]);

        await migrateDatabase(database.url, [removeRetiredJobs]);
        expect(await queued()).toEqual(["plan_sweeps"]);
        expect(await crons()).toEqual(["plan_sweeps"]);
        // Every later start finds nothing to remove.
        await migrateDatabase(database.url, [removeRetiredJobs]);
        expect(await queued()).toEqual(["plan_sweeps"]);
      } finally {
        await client.end().catch(() => {});
        await database.drop();
      }
    },
  );
});
