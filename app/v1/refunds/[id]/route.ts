import { config } from "@/lib/platform/config/env";
import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { REFUNDS } from "@/lib/http/api/operations/refunds";
import { getRefund } from "@/lib/money-out/refunds/list-refunds";
import { serializeRefund } from "@/lib/money-out/refunds/serialize-refund";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...REFUNDS.retrieve,
    handler: async ({ db, auth, params }) => ({
      body: serializeRefund(await getRefund(db, auth, params.id!), config().publicBaseUrl),
    }),
  }),
});
