import { createHash } from "node:crypto";
import type { QueryConfig, QueryResultRow } from "pg";
import { config } from "@/lib/platform/config/env";
import type { Db } from "./client";

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

/** Texts given a name so far (their statements are prepared once per connection); past the cap, unnamed. */
const names = new Map<string, string>();
const MAX_NAMED = 2_000;

/**
 * A statement as a named prepared statement: each connection parses and plans it once, not at every call
 * (measured: planning was half of the server's time for a payment's create). The name is the text's hash;
 * a process naming more than MAX_NAMED texts (SQL built with values inside, which this code does not do)
 * sends the rest unnamed, so no connection holds unbounded statements. DATABASE_PREPARED_STATEMENTS=false
 * sends every statement unnamed (a pooler in transaction mode that cannot keep prepared statements).
 * A prepared statement's result columns are fixed: statements name their columns, never `select *` of a
 * table, so a migration that adds a column (a release rolling out) cannot break the running processes'.
 */
export function prepared(text: string, values: unknown[]): QueryConfig {
  if (!config().databasePreparedStatements) return { text, values };
  let name = names.get(text);
  if (!name && names.size < MAX_NAMED) {
    name = `s_${createHash("sha1").update(text).digest("base64url")}`;
    names.set(text, name);
  }
  return name ? { name, text, values } : { text, values };
}
