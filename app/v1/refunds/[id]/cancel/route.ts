import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { REFUNDS } from "@/lib/http/api/operations/refunds";
import { cancelRefund } from "@/lib/money-out/refunds/cancel-refund";
import { serializeRefund } from "@/lib/money-out/refunds/serialize-refund";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    ...REFUNDS.cancel,
    handler: async ({ db, auth, params }) => ({
      body: serializeRefund(await cancelRefund(db, auth, params.id!)),
    }),
  }),
});
