import { afterEach, describe, expect, it } from "vitest";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { resetConfig } from "@/lib/platform/config/env";
import { query } from "@/lib/platform/db/query";

/** What this connection has prepared of `text` (the statements it parsed once and plans again from). */
const preparedOf = (tx: ReturnType<typeof getDb>, text: string) =>
  query<{ name: string; calls: number }>(
    tx,
    "select name, (generic_plans + custom_plans)::int as calls from pg_prepared_statements where statement = $1",
    [text],
  );

describe("statements prepared once per connection", () => {
  afterEach(() => {
    delete process.env.DATABASE_PREPARED_STATEMENTS;
    resetConfig();
  });

  it("a statement run three times on one connection is parsed once and its plan reused", async () => {
    const text = "select count(*)::int as n from api_keys where merchant_id = $1 /* prepared-probe */";
    await inTransaction(getDb(), async (tx) => {
      for (let i = 0; i < 3; i++) await query(tx, text, [`m_${i}`]);
      const [statement, ...more] = await preparedOf(tx, text);
      expect(more).toEqual([]);
      expect(statement).toMatchObject({ name: expect.stringMatching(/^s_/), calls: 3 });
    });
  });

  it(
    "DATABASE_PREPARED_STATEMENTS=false sends them unnamed (a " + "pooler in transaction mode cannot keep them)",
    async () => {
      process.env.DATABASE_PREPARED_STATEMENTS = "false";
      resetConfig();
      const text = "select count(*)::int as n from api_keys where merchant_id = $1 /* unnamed-probe */";
      await inTransaction(getDb(), async (tx) => {
        await query(tx, text, ["m_1"]);
        expect(await preparedOf(tx, text)).toEqual([]);
      });
    },
  );
});
