import { apiMethods } from "@/lib/api/methods";
import { apiRoute } from "@/lib/api/route";
import { prepareDrop } from "@/lib/sandbox/drop-sandbox-transaction";
import { dropBody } from "@/lib/sandbox/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    scope: "sandbox:chains",
    sandboxOnly: true,
    body: dropBody,
    // The chain call runs outside the request's transactions (lib/sandbox/require-sandbox-chain.ts#ChainCall).
    phases: {
      prepare: ({ db, params, body }) => prepareDrop(db, params.chain!, body.tx_hash),
      send: (_ctx, call) => call(),
      record: async (_ctx, _call, body) => ({ body }),
    },
  }),
});
