import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { SANDBOX } from "@/lib/http/api/operations/sandbox";
import { listSandboxChains } from "@/lib/chains/sandbox/list-sandbox-chains";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...SANDBOX.chains,
    handler: async ({ db }) => ({ body: await listSandboxChains(db) }),
  }),
});
