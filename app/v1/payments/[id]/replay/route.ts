import { z } from "zod";
import { apiMethods } from "@/lib/api/methods";
import { apiRoute } from "@/lib/api/route";
import { replayPaymentEvent } from "@/lib/webhooks/replay-payment-event";

// docs/API.md#replay-a-payments-webhook: no body; its own 10/min window per key.
export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    scope: "payments:write",
    rateLimit: "replay",
    body: z.strictObject({}),
    handler: async ({ db, auth, params }) => ({ body: await replayPaymentEvent(db, auth, params.id!) }),
  }),
});
