import { invalidRequest } from "@/lib/kernel/domain-error";
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
  /** The first id of the page after this one: the page before it (the dashboard's "Previous"). */
  endingBefore?: string;
  /** Names the resource in the error for a cursor that is not one of the caller's. */
  noun: string;
}

/**
 * Newest first with id as tiebreak, keyset-paginated: `starting_after` is the last id of the previous
 * page, so rows inserted meanwhile never shift a page (nothing lost or repeated). Reads one extra row to
 * make `has_more` exact. A cursor outside the caller's own rows is a 400 naming `starting_after`.
 * `endingBefore` pages the other way (still returned newest first); its `has_more` says newer rows remain.
 */
export async function keysetPage(
  db: Db,
  req: KeysetPageRequest,
): Promise<{ rows: Record<string, unknown>[]; hasMore: boolean }> {
  const limit = req.limit ?? 20;
  const n = req.filter.values.length;
  let cursorSql = "";
  const values = [...req.filter.values];
  const backwards = !req.startingAfter && Boolean(req.endingBefore);
  const cursorId = req.startingAfter ?? req.endingBefore;
  if (cursorId) {
    const param = backwards ? "ending_before" : "starting_after";
    const [cursor] = await query<{ created_at: Date }>(
      db,
      `select created_at from ${req.table} where id = $${n + 1} and ${req.filter.sql}`,
      [...values, cursorId],
    );
    if (!cursor) throw invalidRequest(`${param} '${cursorId}' is not a ${req.noun} of yours in this mode.`, param);
    cursorSql = ` and (created_at, id) ${backwards ? ">" : "<"} ($${n + 1}, $${n + 2})`;
    values.push(cursor.created_at, cursorId);
  }
  values.push(limit + 1);
  const order = backwards ? "asc" : "desc";
  const rows = await query(
    db,
    `select ${req.columns} from ${req.table} where ${req.filter.sql}${cursorSql}
     order by created_at ${order}, id ${order} limit $${values.length}`,
    values,
  );
  const page = rows.slice(0, limit);
  return { rows: backwards ? page.reverse() : page, hasMore: rows.length > limit };
}
