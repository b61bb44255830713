import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { WEBHOOKS } from "@/lib/http/api/operations/webhooks";
import { listAttempts } from "@/lib/notify/webhooks/list-attempts";
import { getWebhookEndpoint } from "@/lib/notify/webhooks/manage-webhook-endpoint";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...WEBHOOKS.attempts,
    handler: async ({ db, auth, params, query }) => {
      await getWebhookEndpoint(db, auth, params.id!); // 404 unless it is the caller's
      const page = await listAttempts(db, auth, { endpointId: params.id }, query);
      return { body: { object: "list", data: page.data, has_more: page.hasMore } };
    },
  }),
});
