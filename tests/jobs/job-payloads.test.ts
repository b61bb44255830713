import { randomBytes } from "node:crypto";
import { runOnce } from "graphile-worker";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Db, getDb, getPool } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { expirePaymentJob } from "@/worker/jobs/expire-payment";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { taskList } from "@/worker/task-list";

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * Adds a job with raw SQL (no type check) and runs it with the worker's expire_payment task under a name
 * of its own, so no other test's worker takes it and this runner takes no other job.
 */
async function runRawJob(payload: unknown) {
  const identifier = `expire_payment_test_${randomBytes(4).toString("hex")}`;
  const [job] = await query<{ id: string }>(getDb(), "select (graphile_worker.add_job($1, $2::json)).id::text as id", [
    identifier,
    JSON.stringify(payload),
  ]);
  await runOnce({ pgPool: getPool(), taskList: { [identifier]: taskList.expire_payment } });
  const [row] = await query<{ attempts: number; max_attempts: number; last_error: string | null }>(
    getDb(),
    "select attempts, max_attempts, last_error from graphile_worker.jobs where id = $1",
    [job!.id],
  );
  if (row) await query(getDb(), "select graphile_worker.complete_jobs(array[$1::bigint])", [job!.id]);
  return row;
}

describe("job payloads", () => {
  it("enqueueJob only compiles with the payload the job's schema describes", () => {
    // Never called: `npm run typecheck` fails when a line marked @ts-expect-error compiles.
    const enqueueWrongType = (tx: Db) =>
      // @ts-expect-error deliveryId is a string
      enqueueJob(tx, "deliver_webhook", { deliveryId: 1 });
    const enqueueMissingField = (tx: Db) =>
      // @ts-expect-error expire_payment needs its paymentId
      enqueueJob(tx, "expire_payment", {});
    const enqueueUnknownJob = (tx: Db) =>
      // @ts-expect-error no job has this name
      enqueueJob(tx, "deliver_everything", {});
    const enqueueRightPayload = (tx: Db) => enqueueJob(tx, "deliver_webhook", { deliveryId: "whd_1" });
    expect([enqueueWrongType, enqueueMissingField, enqueueUnknownJob, enqueueRightPayload]).toHaveLength(4);
  });

  it("the worker refuses a payload its schema refuses: the handler does not run, the job fails for good", async () => {
    const handler = vi.spyOn(expirePaymentJob, "handler").mockResolvedValue();
    const row = await runRawJob({ paymentId: 42 });
    expect(handler).not.toHaveBeenCalled();
    expect(row).toMatchObject({ attempts: 1, max_attempts: 1 });
    expect(row!.last_error).toMatch(/^invalid payload for expire_payment: paymentId: /);
  });

  it("the worker hands a valid payload to the handler, parsed", async () => {
    const handler = vi.spyOn(expirePaymentJob, "handler").mockResolvedValue();
    const row = await runRawJob({ paymentId: "pay_test", unknownField: true });
    expect(handler).toHaveBeenCalledOnce();
    expect(handler.mock.calls[0]![0]).toEqual({ paymentId: "pay_test" });
    expect(row).toBeUndefined(); // completed jobs are deleted
  });
});
