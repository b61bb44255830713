import { apiMethods } from "@/lib/api/methods";
import { apiRoute } from "@/lib/api/route";
import { prepareFreeze } from "@/lib/sandbox/freeze-sandbox-address";
import { freezeBody } from "@/lib/sandbox/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    scope: "sandbox:chains",
    sandboxOnly: true,
    body: freezeBody,
    // The chain call runs outside the request's transactions (lib/sandbox/require-sandbox-chain.ts#ChainCall).
    phases: {
      prepare: ({ db, params, body }) => prepareFreeze(db, params.chain!, body.address, false),
      send: (_ctx, call) => call(),
      record: async (_ctx, _call, body) => ({ body }),
    },
  }),
});
