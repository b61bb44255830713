import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { PAYMENTS } from "@/lib/http/api/operations/payments";
import { prepareSimulatedPayment } from "@/lib/money-in/payments/simulate-payment";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    ...PAYMENTS.simulate,
    // The chain call runs outside the request's transactions (lib/chains/sandbox/require-sandbox-chain.ts#ChainCall).
    phases: {
      prepare: ({ db, auth, params, body }) => prepareSimulatedPayment(db, auth, params.id!, body.amount),
      send: (_ctx, call) => call(),
      record: async (_ctx, _call, body) => ({ body }),
    },
  }),
});
