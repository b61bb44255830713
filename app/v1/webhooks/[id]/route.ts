import { z } from "zod";
import { apiMethods } from "@/lib/http/api/methods";
import { apiRoute } from "@/lib/http/api/route";
import {
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
} from "@/lib/notify/webhooks/manage-webhook-endpoint";
import { checkEndpointUrl } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { updateWebhookBody } from "@/lib/notify/webhooks/schemas";
import { serializeWebhookEndpoint } from "@/lib/notify/webhooks/webhook-endpoint-row";

// Retrieve, update (POST, as Stripe does) and delete: docs/API.md#webhook-endpoints.
export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({
  GET: apiRoute({
    scope: "webhooks:read",
    query: z.strictObject({}),
    handler: async ({ db, auth, params }) => ({
      body: serializeWebhookEndpoint(await getWebhookEndpoint(db, auth, params.id!)),
    }),
  }),
  POST: apiRoute({
    scope: "webhooks:write",
    body: updateWebhookBody,
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
    scope: "webhooks:write",
    query: z.strictObject({}),
    handler: async ({ db, auth, params }) => ({ body: await deleteWebhookEndpoint(db, auth, params.id!) }),
  }),
});
