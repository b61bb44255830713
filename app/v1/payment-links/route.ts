import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { PAYMENT_LINKS } from "@/lib/http/api/operations/payment-links";
import { config } from "@/lib/platform/config/env";
import { planPaymentLink } from "@/lib/money-in/payment-links/create-payment-link";
import { listPaymentLinks } from "@/lib/money-in/payment-links/list-payment-links";
import { serializePaymentLink } from "@/lib/money-in/payment-links/serialize-payment-link";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...PAYMENT_LINKS.list,
    handler: async ({ db, auth }) => {
      const rows = await listPaymentLinks(db, auth);
      const now = new Date();
      return {
        body: { object: "list", data: rows.map((row) => serializePaymentLink(row, config().publicBaseUrl, now)) },
      };
    },
  }),
  POST: apiRoute({
    ...PAYMENT_LINKS.create,
    // The insert goes out with the stored response and the COMMIT (one round trip).
    handler: async ({ auth, body }) => {
      const { row, write } = planPaymentLink(auth, body);
      return { body: serializePaymentLink(row, config().publicBaseUrl), writes: [write] };
    },
  }),
});
