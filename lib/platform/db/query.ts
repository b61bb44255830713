import type { QueryResultRow } from "pg";
import type { Db } from "./client";
import { prepared } from "./prepared-statement";

/**
 * Plain parameterized SQL on the handle's pool or transaction connection. The per-request hot path
 * (authentication, rate limits, idempotency, resource writes and lists) uses this: Drizzle's query
 * builder costs ~200-300 µs of CPU per statement here (measured; a raw statement ~50 µs), which was
 * most of the /v1 pipeline's overhead. Drizzle still owns the schema, migrations and cold paths.
 */
export async function query<R extends QueryResultRow>(db: Db, text: string, values: unknown[] = []): Promise<R[]> {
  const result = await db.$client.query<R>(prepared(text, values));
  return result.rows;
}

export async function execute(db: Db, text: string, values: unknown[] = []): Promise<number> {
  const result = await db.$client.query(prepared(text, values));
  return result.rowCount ?? 0;
}
