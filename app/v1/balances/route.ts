import { z } from "zod";
import { apiMethods } from "@/lib/api/methods";
import { apiRoute } from "@/lib/api/route";
import { listBalances } from "@/lib/balances/list-balances";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    scope: "balances:read",
    query: z.strictObject({}),
    handler: async ({ db, auth }) => ({ body: { object: "list", data: await listBalances(db, auth) } }),
  }),
});
