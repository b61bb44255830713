import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { PAYMENTS } from "@/lib/http/api/operations/payments";
import { config } from "@/lib/platform/config/env";
import { getPayment } from "@/lib/money-in/payments/get-payment";
import { readPaymentTransfers } from "@/lib/money-in/payments/payment-transfers";
import { serializePayment } from "@/lib/money-in/payments/serialize-payment";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...PAYMENTS.retrieve,
    handler: async ({ db, auth, params }) => {
      const payment = await getPayment(db, auth, params.id!);
      const transfers = await readPaymentTransfers(db, [payment.id]);
      return { body: serializePayment(payment, config().publicBaseUrl, transfers.get(payment.id)!) };
    },
  }),
});
