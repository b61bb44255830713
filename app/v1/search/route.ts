import { config } from "@/lib/platform/config/env";
import { DomainError } from "@/lib/kernel/domain-error";
import { hasScope } from "@/lib/identity/api-keys/scopes";
import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { SEARCH } from "@/lib/http/api/operations/search";
import { search } from "@/lib/reports/search/search";
import { parseSearchQuery } from "@/lib/reports/search/search-query";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...SEARCH.search,
    handler: async ({ db, auth, query }) => {
      const parsed = parseSearchQuery(query.query);
      // What the key may read: payments always (the operation's scope); payouts and refunds with their own.
      const types = parsed.types.filter((t) => t === "payment" || hasScope(auth.scopes, `${t}s:read`));
      if (types.length === 0)
        throw new DomainError("forbidden", `This key may not read ${parsed.types.map((t) => `${t}s`).join(" or ")}.`);
      const found = await search(
        db,
        auth,
        { ...parsed, types },
        { limit: query.limit ?? 20, baseUrl: config().publicBaseUrl },
      );
      return { body: { object: "list", data: found.data, has_more: found.hasMore } };
    },
  }),
});
