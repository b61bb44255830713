import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { SANDBOX } from "@/lib/http/api/operations/sandbox";
import { prepareCongest } from "@/lib/chains/sandbox/congest-sandbox-chain";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    ...SANDBOX.congest,
    // The chain call runs outside the request's transactions (lib/chains/sandbox/require-sandbox-chain.ts#ChainCall).
    phases: {
      prepare: ({ db, params, body }) => prepareCongest(db, params.chain!, body),
      send: (_ctx, call) => call(),
      record: async (_ctx, _call, body) => ({ body }),
    },
  }),
});
