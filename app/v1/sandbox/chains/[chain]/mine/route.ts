import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { prepareMine } from "@/lib/chains/sandbox/control-sandbox-chain";
import { mineBody } from "@/lib/http/api/sandbox-schemas";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    scope: "payments:write",
    sandboxOnly: true,
    body: mineBody,
    // The chain call runs outside the request's transactions (lib/chains/sandbox/require-sandbox-chain.ts#ChainCall).
    phases: {
      prepare: ({ db, params, body }) => prepareMine(db, params.chain!, body.blocks ?? 1),
      send: (_ctx, call) => call(),
      record: async (_ctx, _call, body) => ({ body }),
    },
  }),
});
