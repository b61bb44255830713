import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { PAYMENTS } from "@/lib/http/api/operations/payments";
import { config } from "@/lib/platform/config/env";
import { createPayment } from "@/lib/money-in/payments/create-payment";
import { listPayments } from "@/lib/money-in/payments/list-payments";
import { serializePayment, serializePaymentListItem } from "@/lib/money-in/payments/serialize-payment";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...PAYMENTS.list,
    handler: async ({ db, auth, query }) => {
      const page = await listPayments(db, auth, query, query);
      return { body: { object: "list", data: page.rows.map(serializePaymentListItem), has_more: page.hasMore } };
    },
  }),
  POST: apiRoute({
    ...PAYMENTS.create,
    handler: async ({ db, auth, body }) => ({
      // A new payment has received nothing yet: no transfers.
      body: serializePayment(await createPayment(db, auth, body), config().publicBaseUrl, []),
    }),
  }),
});
