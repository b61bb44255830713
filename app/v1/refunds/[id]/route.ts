import { config } from "@/lib/platform/config/env";
import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { REFUNDS } from "@/lib/http/api/operations/refunds";
import { getRefund } from "@/lib/money-out/refunds/refund-kind";
import { hasScope } from "@/lib/identity/api-keys/scopes";
import { serializeRefund, serializeRefundForRefunder } from "@/lib/money-out/refunds/serialize-refund";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...REFUNDS.retrieve,
    handler: async ({ db, auth, params }) => {
      const row = await getRefund(db, auth, params.id!);
      // The claim link moves the money: only a key that may create refunds reads it.
      const body = hasScope(auth.scopes, "refunds:write")
        ? serializeRefundForRefunder(row, config().publicBaseUrl)
        : serializeRefund(row);
      return { body };
    },
  }),
});
