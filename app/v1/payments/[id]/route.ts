import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { PAYMENTS } from "@/lib/http/api/operations/payments";
import { config } from "@/lib/platform/config/env";
import { getPayment } from "@/lib/money-in/payments/get-payment";
import { serializePayment } from "@/lib/money-in/payments/serialize-payment";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...PAYMENTS.retrieve,
    handler: async ({ db, auth, params }) => ({
      body: serializePayment(await getPayment(db, auth, params.id!), config().publicBaseUrl),
    }),
  }),
});
