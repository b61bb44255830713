import { apiMethods } from "@/lib/api/methods";
import { apiRoute } from "@/lib/api/route";
import { mineSandboxChain } from "@/lib/sandbox/control-sandbox-chain";
import { mineBody } from "@/lib/sandbox/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    scope: "payments:write",
    sandboxOnly: true,
    body: mineBody,
    handler: async ({ db, params, body }) => ({ body: await mineSandboxChain(db, params.chain!, body.blocks ?? 1) }),
  }),
});
