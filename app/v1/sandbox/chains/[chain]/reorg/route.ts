import { apiMethods } from "@/lib/api/methods";
import { apiRoute } from "@/lib/api/route";
import { reorgSandboxChain } from "@/lib/sandbox/control-sandbox-chain";
import { reorgBody } from "@/lib/sandbox/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    scope: "payments:write",
    sandboxOnly: true,
    body: reorgBody,
    handler: async ({ db, params, body }) => ({ body: await reorgSandboxChain(db, params.chain!, body.depth) }),
  }),
});
