import { DomainError } from "@/lib/kernel/domain-error";

/** The dashboard's page size for lists. */
export const DASHBOARD_PAGE_SIZE = 20;

/**
 * Where a list page is: after the row `after` (Next) or before the row `before` (Previous); neither: the first page.
 */
export interface PageCursor {
  after?: string;
  before?: string;
}

export function pageCursor(params: Record<string, string | undefined>): PageCursor {
  const id = (v: string | undefined) => (v && /^[A-Za-z0-9_]{1,64}$/.test(v) ? v : undefined);
  const after = id(params.after);
  return after ? { after } : { before: id(params.before) };
}

/** The cursors of the Previous and Next links of a page, from its rows and which way it was read. */
export function pageLinks(ids: string[], cursor: PageCursor, hasMore: boolean) {
  const first = ids[0];
  const last = ids.at(-1);
  const backwards = Boolean(cursor.before);
  return {
    previous: first && (backwards ? hasMore : Boolean(cursor.after)) ? first : undefined,
    next: last && (backwards || hasMore) ? last : undefined,
  };
}

/** A cursor that is not one of the caller's rows (edited URL, another mode): the list says so. */
export async function withStaleCursor<T>(read: () => Promise<T>): Promise<T | "stale_cursor"> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof DomainError && (err.param === "starting_after" || err.param === "ending_before"))
      return "stale_cursor";
    throw err;
  }
}
