import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { BALANCES } from "@/lib/http/api/operations/balances";
import { listBalances } from "@/lib/books/balances/list-balances";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...BALANCES.list,
    handler: async ({ db, auth }) => ({ body: { object: "list", data: await listBalances(db, auth) } }),
  }),
});
