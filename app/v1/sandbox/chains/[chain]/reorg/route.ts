import { apiMethods } from "@/lib/api/methods";
import { apiRoute } from "@/lib/api/route";
import { prepareReorg } from "@/lib/sandbox/control-sandbox-chain";
import { reorgBody } from "@/lib/sandbox/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    scope: "sandbox:chains",
    sandboxOnly: true,
    body: reorgBody,
    // The chain call runs outside the request's transactions (lib/sandbox/require-sandbox-chain.ts#ChainCall).
    phases: {
      prepare: ({ db, params, body }) => prepareReorg(db, params.chain!, body.depth),
      send: (_ctx, call) => call(),
      record: async (_ctx, _call, body) => ({ body }),
    },
  }),
});
