import { sql } from "drizzle-orm";
import { parseCrontab, runOnce } from "graphile-worker";
import { describe, expect, it } from "vitest";
import { getDb, getPool, inTransaction } from "@/lib/platform/db/client";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { JOBS } from "@/worker/registry";
import { crontab, taskList } from "@/worker/task-list";
import { newMerchant } from "../helpers/api";

const pendingJobs = async (jobKey: string) =>
  (await getDb().execute(sql`select count(*)::int as n from graphile_worker.jobs where key = ${jobKey}`)).rows[0]!
    .n as number;

describe("job runner", () => {
  it("a job enqueued in a transaction exists only if the transaction commits", async () => {
    const key = `test-${Date.now()}`;
    await inTransaction(getDb(), async (tx) => {
      await enqueueJob(
        tx,
        "expire_idempotency_keys",
        {},
        { jobKey: `${key}-rolled-back`, runAt: new Date(Date.now() + 3_600_000) },
      );
      throw new Error("rollback");
    }).catch(() => undefined);
    expect(await pendingJobs(`${key}-rolled-back`)).toBe(0);

    await inTransaction(getDb(), async (tx) => {
      await enqueueJob(
        tx,
        "expire_idempotency_keys",
        {},
        { jobKey: `${key}-committed`, runAt: new Date(Date.now() + 3_600_000) },
      );
    });
    expect(await pendingJobs(`${key}-committed`)).toBe(1);
    await getDb().execute(sql`select graphile_worker.remove_job(${`${key}-committed`})`);
  });

  it("the worker runs the periodic idempotency-key expiry job", async () => {
    const m = await newMerchant();
    await getDb().execute(sql`
      insert into idempotency_keys
        (merchant_id, mode, key, request_hash, method, path, response_status, response_body, created_at)
      values (${m.id}, 'sandbox', 'old', 'h', 'POST', '/v1/x', 200, '{}', now() - interval '2 days'),
             (${m.id}, 'sandbox', 'fresh', 'h', 'POST', '/v1/x', 200, '{}', now())`);
    await enqueueJob(getDb(), "expire_idempotency_keys", {}, { jobKey: `expire-${m.id}` });
    // Only this task: other test files' jobs (webhook deliveries) are theirs to run. A worker of another file
    // (tests/webhooks/delivery.test.ts) may take the job first: then it is that one's run that is awaited.
    await runOnce({ pgPool: getPool(), taskList: { expire_idempotency_keys: taskList.expire_idempotency_keys } });
    const keys = async () =>
      (await getDb().execute(sql`select key from idempotency_keys where merchant_id = ${m.id}`)).rows.map((r) => r.key);
    const deadline = Date.now() + 10_000;
    while ((await keys()).length > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await keys()).toEqual(["fresh"]);
  });

  it("every job has one name, a task, and a valid schedule when periodic", () => {
    const names = JOBS.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    const items = parseCrontab(crontab());
    expect(items.map((i) => i.task).sort()).toEqual(
      JOBS.filter((job) => job.cron)
        .map((job) => job.name)
        .sort(),
    );
    expect(Object.keys(taskList).sort()).toEqual([...names].sort());
    for (const name of names) expect(taskList[name]).toBeTypeOf("function");
  });
});
