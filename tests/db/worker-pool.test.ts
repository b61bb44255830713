import { describe, expect, it } from "vitest";
import { closeDb, getPool, sizePoolForJobs } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { getDb } from "@/lib/platform/db/client";

// A request gives up after DATABASE_ACQUIRE_TIMEOUT_MS; a job must not: the worker's pool holds a
// connection for every job it runs at once and has no acquire timeout. (This file runs in its own process.)
describe("the worker's process pool", () => {
  it("is sized for its jobs and waits for a connection instead of failing", async () => {
    const web = getPool();
    expect(web.options.connectionTimeoutMillis).toBeGreaterThan(0);
    await closeDb();
    sizePoolForJobs(20);
    const worker = getPool();
    expect(worker.options.max).toBe(22);
    expect(worker.options.connectionTimeoutMillis).toBe(0);
    const [row] = await query<{ timeout: string }>(getDb(), "show statement_timeout");
    expect(row!.timeout).not.toBe("0"); // statements stay bounded
  });
});
