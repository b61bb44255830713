import { apiMethods } from "@/lib/http/api/methods";
import { DEPOSIT_ADDRESSES } from "@/lib/http/api/operations/deposit-addresses";
import { apiRoute } from "@/lib/http/api/route";
import { prepareSimulatedDeposit } from "@/lib/money-in/deposit-addresses/simulate-deposit";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    ...DEPOSIT_ADDRESSES.simulate,
    // The chain call runs outside the request's transactions (lib/chains/sandbox/require-sandbox-chain.ts#ChainCall).
    phases: {
      prepare: ({ db, auth, params, body }) => prepareSimulatedDeposit(db, auth, params.id!, body.amount),
      send: (_ctx, call) => call(),
      record: async (_ctx, _call, body) => ({ body }),
    },
  }),
});
