import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { prepareCongest } from "@/lib/chains/sandbox/congest-sandbox-chain";
import { congestBody } from "@/lib/http/api/sandbox-schemas";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    scope: "sandbox:chains",
    sandboxOnly: true,
    body: congestBody,
    // The chain call runs outside the request's transactions (lib/chains/sandbox/require-sandbox-chain.ts#ChainCall).
    phases: {
      prepare: ({ db, params, body }) => prepareCongest(db, params.chain!, body.base_fee_gwei),
      send: (_ctx, call) => call(),
      record: async (_ctx, _call, body) => ({ body }),
    },
  }),
});
