import { invalidRequest } from "@/lib/api/errors";
import type { Db } from "./client";
import { query } from "./query";

export interface KeysetPageRequest {
  /** Table name and selected columns: trusted constants from the caller, never user input. */
  table: string;
  columns: string;
  /** Owner filter as SQL over $1..$n plus its values (merchant, mode, optional status…). */
  filter: { sql: string; values: unknown[] };
  limit?: number;
  startingAfter?: string;
  /** Names the resource in the error for a cursor that is not one of the caller's. */
  noun: string;
}

/**
 * Newest first with id as tiebreak, keyset-paginated: `starting_after` is the last id of the previous
 * page, so rows inserted meanwhile never shift a page (nothing lost or repeated). Reads one extra row to
 * make `has_more` exact. A cursor outside the caller's own rows is a 400 naming `starting_after`.
 */
export async function keysetPage(
  db: Db,
  req: KeysetPageRequest,
): Promise<{ rows: Record<string, unknown>[]; hasMore: boolean }> {
  const limit = req.limit ?? 20;
  const n = req.filter.values.length;
  let cursorSql = "";
  const values = [...req.filter.values];
  if (req.startingAfter) {
    const [cursor] = await query<{ created_at: Date }>(
      db,
      `select created_at from ${req.table} where id = $${n + 1} and ${req.filter.sql}`,
      [...values, req.startingAfter],
    );
    if (!cursor)
      throw invalidRequest(
        `starting_after '${req.startingAfter}' is not a ${req.noun} of yours in this mode.`,
        "starting_after",
      );
    cursorSql = ` and (created_at, id) < ($${n + 1}, $${n + 2})`;
    values.push(cursor.created_at, req.startingAfter);
  }
  values.push(limit + 1);
  const rows = await query(
    db,
    `select ${req.columns} from ${req.table} where ${req.filter.sql}${cursorSql} order by created_at desc, id desc limit $${values.length}`,
    values,
  );
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}
