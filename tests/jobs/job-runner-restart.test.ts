import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, it } from "vitest";
import { type EmbeddedDatabase, startEmbeddedDatabase } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { startJobRunner } from "@/lib/jobs/job-runner";
import { sleep } from "@/lib/util/sleep";

// graphile-worker gives up on a database outage in three ways: a worker that cannot record its job's outcome
// stops for good, the cron stops the whole runner when it cannot write a minute's jobs, and a runner started
// as the database fails keeps failing every poll with that first error. The runner must come back from each
// on its own, and the periodic jobs keep coming. Each case kills a PostgreSQL of its own (SIGKILL of the postmaster) and
// starts it again, then asks for a job: it must run.

const killPostmaster = (dataDir: string) =>
  process.kill(
    Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]),
    "SIGKILL",
  );

async function until(what: string, check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** A database of its own, migrated, with a pool that rides out its restarts. */
async function ownDatabase(name: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `usdt-jobs-${name}-`));
  let db: EmbeddedDatabase = await startEmbeddedDatabase(dataDir);
  await migrateDatabase(db.url);
  const pool = new pg.Pool({ connectionString: db.url, max: 8 });
  pool.on("error", () => {}); // idle clients of the killed server
  const ran: string[] = [];
  const addJob = (task: string, payload: object) =>
    pool.query("select graphile_worker.add_job($1, $2::json)", [task, JSON.stringify(payload)]);
  return {
    pool,
    ran,
    addJob,
    kill: () => killPostmaster(dataDir),
    restart: async () => {
      db = await startEmbeddedDatabase(dataDir);
    },
    /** Asks for a job after the outage and waits for it to run (a worker is alive and taking jobs). */
    expectJobsRunAgain: async () => {
      await addJob("note", { n: "after" });
      await until("a job asked for after the outage to run", () => ran.includes("note after"), 30_000);
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
      await until("the held job to start", () => db.ran.includes("hold"), 15_000);
      db.kill();
      await sleep(500);
      release(); // the job ends while the database is gone: its outcome cannot be recorded
      await sleep(2_000);
      await db.restart();
      await db.expectJobsRunAgain();
      // The held job, never recorded as done, is freed from the dead worker's lock and runs again.
      await until("the held job to run again", () => db.ran.filter((r) => r === "hold").length === 2, 30_000);
    } finally {
      await runner.stop();
      await db.close();
    }
  }, 90_000);

  it("keeps writing the periodic jobs, and running jobs, through an outage across a minute's turn", async () => {
    const db = await ownDatabase("cron");
    const runner = await startJobRunner(db.pool, {
      taskList: {
        tick: async () => {
          db.ran.push("tick");
        },
        note: async (payload) => {
          db.ran.push(`note ${(payload as { n: string }).n}`);
        },
      },
      crontab: "* * * * * tick ?max=1",
      concurrency: 2,
    });
    try {
      await db.addJob("note", { n: "before" });
      await until("a job before the outage", () => db.ran.includes("note before"), 15_000);
      // Down from 3 s before a minute's turn until 3 s after it: the cron's write of that minute fails.
      await sleep(60_000 - ((Date.now() + 3_000) % 60_000));
      db.kill();
      const ticks = db.ran.filter((r) => r === "tick").length;
      await sleep(6_000);
      await db.restart();
      await db.expectJobsRunAgain();
      // The minute's periodic job, written once the database answered again.
      await until(
        "the periodic job of the outage's minute",
        () => db.ran.filter((r) => r === "tick").length > ticks,
        30_000,
      );
    } finally {
      await runner.stop();
      await db.close();
    }
  }, 120_000);

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
