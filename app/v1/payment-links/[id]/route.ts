import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { PAYMENT_LINKS } from "@/lib/http/api/operations/payment-links";
import { config } from "@/lib/platform/config/env";
import { getPaymentLink } from "@/lib/money-in/payment-links/get-payment-link";
import { serializePaymentLink } from "@/lib/money-in/payment-links/serialize-payment-link";

// Retrieval of a single link is an addition (docs/API-DECISIONS.md),
// provided because merchants and the dashboard need it.
export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...PAYMENT_LINKS.retrieve,
    handler: async ({ db, auth, params }) => ({
      body: serializePaymentLink(await getPaymentLink(db, auth, params.id!), config().publicBaseUrl),
    }),
  }),
});
