import { z } from "zod";
import { apiMethods } from "@/lib/api/methods";
import { apiRoute } from "@/lib/api/route";
import { config } from "@/lib/config/env";
import { getPayment } from "@/lib/payments/get-payment";
import { serializePayment } from "@/lib/payments/serialize-payment";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    scope: "payments:read",
    query: z.strictObject({}),
    handler: async ({ db, auth, params }) => ({
      body: serializePayment(await getPayment(db, auth, params.id!), config().publicBaseUrl),
    }),
  }),
});
