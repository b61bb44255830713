import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createPool } from "@/lib/platform/db/client";
import { type EmbeddedDatabase, startEmbeddedDatabase } from "@/lib/platform/db/embedded";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { cronTolerantPool } from "@/lib/platform/jobs/cron-pool";
import { startJobRunner } from "@/lib/platform/jobs/job-runner";
import { sleep } from "@/lib/kernel/sleep";
import { killPostmaster, until } from "../helpers/started-service";

// graphile-worker gives up on a database outage in three ways: a worker that cannot record its job's outcome
// stops for good, the cron stops the whole runner when it cannot write a minute's jobs, and a runner started
// as the database fails keeps failing every poll with that first error. The runner must come back from each
// on its own. Each case kills a PostgreSQL of its own (SIGKILL of the postmaster) and starts it again.

/** A database of its own, migrated, with a pool that rides out its restarts. */
async function ownDatabase(name: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `usdt-jobs-${name}-`));
  let db: EmbeddedDatabase = await startEmbeddedDatabase(dataDir);
  await migrateDatabase(db.url);
  const pool = createPool(db.url, 8); // the service's own pool: it rides out the server's restarts
  const ran: string[] = [];
  const addJob = (task: string, payload: object) =>
    pool.query("select graphile_worker.add_job($1, $2::json)", [task, JSON.stringify(payload)]);
  return {
    pool,
    ran,
    addJob,
    kill: () => killPostmaster(path.join(dataDir, "postgres")),
    restart: async () => {
      db = await startEmbeddedDatabase(dataDir);
    },
    /** Asks for a job after the outage and waits for it to run (a worker is alive and taking jobs). */
    expectJobsRunAgain: async () => {
      await addJob("note", { n: "after" });
      await until("a job asked for after the outage to run", async () => ran.includes("note after"), 30_000);
    },
    close: async () => {
      await pool.end();
      await db.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe.concurrent("the job runner across a database restart", () => {
  it("replaces a worker that stopped because it could not record its job's outcome", async () => {
    const db = await ownDatabase("worker");
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // One worker only: without its replacement, no job would ever run again.
    const runner = await startJobRunner(db.pool, {
      taskList: {
        hold: async () => {
          db.ran.push("hold");
          if (db.ran.filter((r) => r === "hold").length === 1) await held;
        },
        note: async (payload) => {
          db.ran.push(`note ${(payload as { n: string }).n}`);
        },
      },
      crontab: "",
      concurrency: 1,
    });
    try {
      await db.addJob("hold", {});
      await until("the held job to start", async () => db.ran.includes("hold"), 15_000);
      db.kill();
      await sleep(500);
      release(); // the job ends while the database is gone: its outcome cannot be recorded
      await sleep(2_000);
      await db.restart();
      await db.expectJobsRunAgain();
      // The held job, never recorded as done, is freed from the dead worker's lock and runs again.
      await until("the held job to run again", async () => db.ran.filter((r) => r === "hold").length === 2, 30_000);
    } finally {
      await runner.stop();
      await db.close();
    }
  }, 90_000);

  it("keeps its cron: the cron's query waits for the database instead of stopping the runner", async () => {
    // graphile's cron writes each minute's jobs with pool.query and stops the whole runner when that fails;
    // its pool (cron-pool.ts) makes the query wait out the outage. Without it, this query fails at once.
    const db = await ownDatabase("cron");
    const stop = new AbortController();
    try {
      const cronPool = cronTolerantPool(db.pool, stop.signal);
      db.kill();
      await sleep(500);
      const answered = cronPool.query<{ one: number }>("select 1 as one");
      await sleep(3_000);
      await db.restart();
      expect((await answered).rows).toEqual([{ one: 1 }]);
      // A bad query is not an outage: it fails as before.
      await expect(cronPool.query("select * from no_such_table")).rejects.toThrow("no_such_table");
    } finally {
      stop.abort();
      await db.close();
    }
  }, 60_000);

  it("takes jobs once the database is back when it started just as the database died", async () => {
    const db = await ownDatabase("early");
    const runner = await startJobRunner(db.pool, {
      taskList: {
        note: async (payload) => {
          db.ran.push(`note ${(payload as { n: string }).n}`);
        },
      },
      crontab: "",
      concurrency: 2,
    });
    try {
      db.kill(); // before its workers first looked up their tasks
      await sleep(4_000);
      await db.restart();
      await db.expectJobsRunAgain();
    } finally {
      await runner.stop();
      await db.close();
    }
  }, 90_000);
});
