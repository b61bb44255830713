import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { PAYMENTS } from "@/lib/http/api/operations/payments";
import { prepareReplay, replayResult, sendReplay } from "@/lib/money-in/payments/replay-payment-event";

// docs/API.md#replay-a-payments-webhook: no body; its own 10/min window per key. The sends run outside the
// request's transactions (lib/http/api/execute-phased-write.ts).
export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    ...PAYMENTS.replay,
    phases: {
      prepare: ({ db, auth, params }) => prepareReplay(db, auth, params.id!),
      send: ({ db, auth }, prepared) => sendReplay(db, auth, prepared),
      record: async (_ctx, prepared, results) => ({ body: replayResult(prepared, results) }),
    },
  }),
});
