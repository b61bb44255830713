import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { prepareFaucetTransfer } from "@/lib/chains/sandbox/fund-sandbox-address";
import { faucetBody } from "@/lib/http/api/sandbox-schemas";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    scope: "payments:write",
    sandboxOnly: true,
    body: faucetBody,
    // The chain call runs outside the request's transactions (lib/chains/sandbox/require-sandbox-chain.ts#ChainCall).
    phases: {
      prepare: ({ db, body }) => prepareFaucetTransfer(db, body),
      send: (_ctx, call) => call(),
      record: async (_ctx, _call, body) => ({ body }),
    },
  }),
});
