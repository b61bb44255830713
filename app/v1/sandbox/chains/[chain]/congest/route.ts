import { apiMethods } from "@/lib/api/methods";
import { apiRoute } from "@/lib/api/route";
import { prepareCongest } from "@/lib/sandbox/congest-sandbox-chain";
import { congestBody } from "@/lib/sandbox/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    scope: "sandbox:chains",
    sandboxOnly: true,
    body: congestBody,
    // The chain call runs outside the request's transactions (lib/sandbox/require-sandbox-chain.ts#ChainCall).
    phases: {
      prepare: ({ db, params, body }) => prepareCongest(db, params.chain!, body.base_fee_gwei),
      send: (_ctx, call) => call(),
      record: async (_ctx, _call, body) => ({ body }),
    },
  }),
});
