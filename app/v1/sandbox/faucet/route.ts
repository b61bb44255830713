import { apiMethods } from "@/lib/api/methods";
import { apiRoute } from "@/lib/api/route";
import { fundSandboxAddress } from "@/lib/sandbox/fund-sandbox-address";
import { faucetBody } from "@/lib/sandbox/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    scope: "payments:write",
    sandboxOnly: true,
    body: faucetBody,
    handler: async ({ db, body }) => ({ body: await fundSandboxAddress(db, body) }),
  }),
});
