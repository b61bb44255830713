import { config } from "@/lib/platform/config/env";
import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { REFUNDS } from "@/lib/http/api/operations/refunds";
import { regenerateRefundClaim } from "@/lib/money-out/refunds/regenerate-refund-claim";
import { serializeRefundForRefunder } from "@/lib/money-out/refunds/serialize-refund";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    ...REFUNDS.regenerateClaimUrl,
    handler: async ({ db, auth, params, body }) => {
      const regenerated = await regenerateRefundClaim(db, auth, params.id!, body);
      return {
        body: serializeRefundForRefunder(regenerated.row, config().publicBaseUrl, regenerated.claimCode),
        sensitive: true,
      };
    },
  }),
});
