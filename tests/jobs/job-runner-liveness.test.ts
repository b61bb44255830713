import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { getDb, getPool, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { startJobRunner } from "@/lib/platform/jobs/job-runner";
import { freeDeadRunnersJobs } from "@/lib/platform/jobs/job-runner-liveness";

// Jobs locked by a worker as graphile-worker itself locks them, far in the future (no live worker of the
// suite takes them), then judged by their runners' heartbeats.
const keys: string[] = [];

async function lockedJob(lockedBy: string, lockedSecondsAgo: number): Promise<string> {
  const key = `liveness-${randomBytes(6).toString("hex")}`;
  keys.push(key);
  await inTransaction(getDb(), (tx) =>
    enqueueJob(tx, "expire_idempotency_keys", {}, { jobKey: key, runAt: new Date(Date.now() + 3_600_000) }),
  );
  await query(
    getDb(),
    `update graphile_worker._private_jobs set locked_by = $2, locked_at = now() - make_interval(secs => $3)
      where key = $1`,
    [key, lockedBy, lockedSecondsAgo],
  );
  return key;
}

const lockOf = async (key: string) =>
  (
    await query<{ locked_by: string | null }>(getDb(), "select locked_by from graphile_worker.jobs where key = $1", [
      key,
    ])
  )[0]!.locked_by;

afterAll(async () => {
  await query(getDb(), "select graphile_worker.remove_job(k) from unnest($1::text[]) k", [keys]);
});

describe("jobs held by a worker process that died", () => {
  it(
    "are freed once their worker's heartbeat is older than the limit; " +
      "a live or just-started worker keeps its jobs",
    async () => {
      const id = () => `worker-test-${randomBytes(6).toString("hex")}`;
      const [dead, alive, stale, young] = [id(), id(), id(), id()];
      await query(
        getDb(),
        `insert into job_runners (worker_id, process, heartbeat_at) values
         ($1, 'test:1', now()), ($2, 'test:2', now() - interval '5 minutes')`,
        [alive, stale],
      );
      const jobs = {
        dead: await lockedJob(dead, 120), // no heartbeat ever recorded (killed before its first beat)
        alive: await lockedJob(alive, 600), // a long job on a live worker
        stale: await lockedJob(stale, 120), // its heartbeats stopped
        young: await lockedJob(young, 5), // locked moments ago by a worker not yet beating
      };
      const freed = await freeDeadRunnersJobs(getPool(), 60);
      // Every worker of the suite runs this same check with its heartbeat, so one may have freed `dead` or
      // `stale` first: what holds is the jobs' locks below, and that no check frees a live or just-started
      // worker's jobs.
      expect(freed.filter((w) => [alive, young].includes(w))).toEqual([]);
      expect({
        dead: await lockOf(jobs.dead),
        alive: await lockOf(jobs.alive),
        stale: await lockOf(jobs.stale),
        young: await lockOf(jobs.young),
      }).toEqual({ dead: null, alive, stale: null, young });
    },
  );
});

describe("a stop whose job does not end", () => {
  it("frees the job for other workers after the grace and returns, instead of leaving it locked", async () => {
    // A task only this runner knows, so no other worker of the suite takes its job.
    const task = `never_ends_${randomBytes(4).toString("hex")}`;
    const key = `liveness-${task}`;
    keys.push(key);
    let started = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const runner = await startJobRunner(getPool(), {
      taskList: {
        [task]: () => {
          started();
          return new Promise<void>(() => {});
        },
      },
      crontab: "",
      concurrency: 1,
      stopGraceMs: 1_000,
    });
    await query(getDb(), "select graphile_worker.add_job($1, '{}'::json, job_key := $2)", [task, key]);
    await running;
    expect(await lockOf(key)).not.toBeNull();
    await runner.stop(); // without the grace, this waits for the job forever (the test's timeout fails it)
    expect(await lockOf(key)).toBeNull();
  });
});
