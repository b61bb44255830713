import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { WEBHOOKS } from "@/lib/http/api/operations/webhooks";
import { checkEndpointUrl, insertWebhookEndpoint } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { listWebhookEndpoints } from "@/lib/notify/webhooks/list-webhook-endpoints";
import { serializeWebhookEndpoint } from "@/lib/notify/webhooks/webhook-endpoint-row";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...WEBHOOKS.list,
    handler: async ({ db, auth, query }) => {
      const page = await listWebhookEndpoints(db, auth, query);
      return { body: { object: "list", data: page.rows.map(serializeWebhookEndpoint), has_more: page.hasMore } };
    },
  }),
  POST: apiRoute({
    ...WEBHOOKS.create,
    // The URL's DNS lookup runs between the key's claim and the insert, outside both transactions.
    phases: {
      prepare: async () => undefined,
      send: ({ auth, body }) => checkEndpointUrl(auth.mode, body.url),
      record: async ({ db, auth, body }, _prepared, url) => {
        const { row, secret } = await insertWebhookEndpoint(db, auth, body, url);
        // The secret is shown once: an idempotent replay stores it only encrypted.
        return { body: { ...serializeWebhookEndpoint(row), secret }, sensitive: true };
      },
    },
  }),
});
