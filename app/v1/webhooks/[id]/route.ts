import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import { WEBHOOKS } from "@/lib/http/api/operations/webhooks";
import {
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
} from "@/lib/notify/webhooks/manage-webhook-endpoint";
import { checkEndpointUrl } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { serializeWebhookEndpoint } from "@/lib/notify/webhooks/webhook-endpoint-row";

// Retrieve, update (POST, as Stripe does) and delete: docs/API.md#webhook-endpoints.
export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    ...WEBHOOKS.retrieve,
    handler: async ({ db, auth, params }) => ({
      body: serializeWebhookEndpoint(await getWebhookEndpoint(db, auth, params.id!)),
    }),
  }),
  POST: apiRoute({
    ...WEBHOOKS.update,
    // A new URL's DNS lookup runs outside the request's transactions, after the endpoint is known to exist.
    phases: {
      prepare: ({ db, auth, params }) => getWebhookEndpoint(db, auth, params.id!),
      send: ({ auth, body }) =>
        body.url === undefined ? Promise.resolve(undefined) : checkEndpointUrl(auth.mode, body.url),
      record: async ({ db, auth, params, body }, _endpoint, url) => ({
        body: serializeWebhookEndpoint(await updateWebhookEndpoint(db, auth, params.id!, body, url)),
      }),
    },
  }),
  DELETE: apiRoute({
    ...WEBHOOKS.delete,
    handler: async ({ db, auth, params }) => ({ body: await deleteWebhookEndpoint(db, auth, params.id!) }),
  }),
});
