import { apiMethods } from "@/lib/api/methods";
import { apiRoute } from "@/lib/api/route";
import { simulatePayment } from "@/lib/sandbox/simulate-payment";
import { simulateBody } from "@/lib/sandbox/schemas";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    scope: "payments:write",
    sandboxOnly: true,
    body: simulateBody,
    handler: async ({ db, auth, params, body }) => ({ body: await simulatePayment(db, auth, params.id!, body.amount) }),
  }),
});
