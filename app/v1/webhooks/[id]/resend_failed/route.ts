import { apiMethods } from "@/lib/http/api/methods";
import { WEBHOOKS } from "@/lib/http/api/operations/webhooks";
import { apiRoute } from "@/lib/http/api/route";
import { resendFailedWithAudit } from "@/lib/dashboard/actions/resend-failed-webhooks";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  POST: apiRoute({
    ...WEBHOOKS.resendFailed,
    handler: async ({ db, auth, params, body }) => ({
      body: await resendFailedWithAudit(db, auth, params.id!, body.since, { apiKeyId: auth.keyId }),
    }),
  }),
});
