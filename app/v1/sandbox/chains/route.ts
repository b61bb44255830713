import { z } from "zod";
import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { listSandboxChains } from "@/lib/chains/sandbox/list-sandbox-chains";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    scope: "payments:read",
    sandboxOnly: true,
    query: z.strictObject({}),
    handler: async ({ db }) => ({ body: await listSandboxChains(db) }),
  }),
});
