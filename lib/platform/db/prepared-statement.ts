import { createHash } from "node:crypto";
import type { QueryConfig } from "pg";
import { config } from "@/lib/platform/config/env";

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
