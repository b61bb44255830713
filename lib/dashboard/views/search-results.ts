import { DomainError } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { can, type Role } from "@/lib/identity/users/roles";
import type { Db } from "@/lib/platform/db/client";
import { search } from "@/lib/reports/search/search";
import { parseSearchQuery } from "@/lib/reports/search/search-query";

export interface SearchResult {
  kind: "payment" | "payout" | "refund";
  id: string;
  status: string;
  chain: string | null;
  amount: string;
  createdAt: string;
  href: string;
}

/**
 * The dashboard's search box: the API's search (docs/API.md#search), over the kinds the user's role may read,
 * each result linked to its page. A malformed query is a message, not an error page.
 */
export async function loadSearchResults(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  role: Role,
  text: string | undefined,
): Promise<{ query: string; error: string | null; results: SearchResult[]; more: boolean }> {
  const query = (text ?? "").trim().slice(0, 500);
  if (!query) return { query, error: null, results: [], more: false };
  let parsed: ReturnType<typeof parseSearchQuery>;
  try {
    parsed = parseSearchQuery(query);
  } catch (err) {
    if (err instanceof DomainError)
      return { query, error: err.message.replace(/^query:?\s*/, ""), results: [], more: false };
    throw err;
  }
  const types = parsed.types.filter((t) => can(role, `${t}s:read`));
  if (types.length === 0) return { query, error: `Your role (${role}) may not read those.`, results: [], more: false };
  const found = await search(db, owner, { ...parsed, types }, { limit: 50, baseUrl: "" });
  const results = found.data.map((o) => {
    const kind = o.object as SearchResult["kind"];
    return {
      kind,
      id: String(o.id),
      status: String(o.status),
      chain: (o.chain as string | null) ?? null,
      amount: String(o.amount),
      createdAt: String(o.created_at),
      href: `/dashboard/${kind}s/${o.id}`,
    };
  });
  return { query, error: null, results, more: found.hasMore };
}
