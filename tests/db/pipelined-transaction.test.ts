import { beforeAll, describe, expect, it } from "vitest";
import { getDb, getPool, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

const rows = async (tag: string) =>
  (await query<{ id: number }>(getDb(), "select id from pipeline_probe where tag = $1 order by id", [tag])).map(
    (r) => r.id,
  );

describe("a transaction on the pipelining pool (BEGIN with the first statement, last writes with COMMIT)", () => {
  beforeAll(async () => {
    await query(
      getDb(),
      "create table if not exists pipeline_probe (id int, tag text, v int check (v > 0), primary key (id, tag))",
    );
  });

  it("the web's pool pipelines, and the last writes commit with everything before them", async () => {
    expect((getPool() as unknown as { options: { pipeline?: boolean } }).options.pipeline).toBe(true);
    await inTransaction(
      getDb(),
      async (tx) => {
        await query(tx, "insert into pipeline_probe values (1, 'ok', 1)");
        return 2;
      },
      { last: (n) => [{ text: "insert into pipeline_probe values ($1, 'ok', 1)", values: [n] }] },
    );
    expect(await rows("ok")).toEqual([1, 2]);
  });

  it("a last write that fails: its own error is thrown and nothing of the transaction is committed", async () => {
    const failed = await inTransaction(
      getDb(),
      async (tx) => {
        await query(tx, "insert into pipeline_probe values (1, 'bad', 1)");
        return null;
      },
      {
        last: () => [
          { text: "insert into pipeline_probe values (2, 'bad', 1)", values: [] },
          { text: "insert into pipeline_probe values (3, 'bad', -1)", values: [] }, // violates the check
          { text: "insert into pipeline_probe values (4, 'bad', 1)", values: [] },
        ],
      },
    ).catch((err: { code?: string }) => err);
    expect((failed as { code?: string }).code).toBe("23514"); // check_violation, not "transaction aborted"
    expect(await rows("bad")).toEqual([]);
  });

  it("statements sent before BEGIN's answer are inside the transaction: a failure rolls them back", async () => {
    const err = await inTransaction(getDb(), async (tx) => {
      await query(tx, "insert into pipeline_probe values (1, 'rolled', 1)");
      throw new Error("handler failed");
    }).catch((e: Error) => e);
    expect(err.message).toBe("handler failed");
    expect(await rows("rolled")).toEqual([]);
  });
});
