import { z } from "zod";
import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { listBalances } from "@/lib/books/balances/list-balances";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    scope: "balances:read",
    query: z.strictObject({}),
    handler: async ({ db, auth }) => ({ body: { object: "list", data: await listBalances(db, auth) } }),
  }),
});
