import { z } from "zod";
import { attemptPaginationQuery } from "@/lib/kernel/schemas/pagination";
import { listOf } from "@/lib/kernel/schemas/response-fields";
import {
  createWebhookBody,
  listWebhooksQuery,
  resendFailedBody,
  updateWebhookBody,
} from "@/lib/notify/webhooks/schemas";
import {
  createdWebhookEndpointObject,
  deletedWebhookEndpointObject,
  webhookAttemptList,
  webhookEndpointObject,
  webhookResendObject,
} from "@/lib/notify/webhooks/webhook-objects";
import { defineOperation } from "../operation";

const tag = "Webhook endpoints";

export const WEBHOOKS = {
  list: defineOperation({
    operationId: "listWebhookEndpoints",
    method: "get",
    path: "/v1/webhooks",
    tag,
    summary: "List webhook endpoints",
    scope: "webhooks:read",
    query: listWebhooksQuery,
    response: listOf(webhookEndpointObject).meta({ id: "WebhookEndpointList" }),
  }),
  create: defineOperation({
    operationId: "createWebhookEndpoint",
    method: "post",
    path: "/v1/webhooks",
    tag,
    summary: "Create a webhook endpoint",
    description: "The answer carries the endpoint's signing secret, shown this once.",
    scope: "webhooks:write",
    body: createWebhookBody,
    response: createdWebhookEndpointObject,
  }),
  retrieve: defineOperation({
    operationId: "retrieveWebhookEndpoint",
    method: "get",
    path: "/v1/webhooks/{id}",
    tag,
    summary: "Retrieve a webhook endpoint",
    scope: "webhooks:read",
    query: z.strictObject({}),
    response: webhookEndpointObject,
    errors: ["not_found"],
  }),
  update: defineOperation({
    operationId: "updateWebhookEndpoint",
    method: "post",
    path: "/v1/webhooks/{id}",
    tag,
    summary: "Update a webhook endpoint",
    scope: "webhooks:write",
    body: updateWebhookBody,
    response: webhookEndpointObject,
    errors: ["not_found"],
  }),
  delete: defineOperation({
    operationId: "deleteWebhookEndpoint",
    method: "delete",
    path: "/v1/webhooks/{id}",
    tag,
    summary: "Delete a webhook endpoint",
    scope: "webhooks:write",
    query: z.strictObject({}),
    response: deletedWebhookEndpointObject,
    errors: ["not_found"],
  }),
  resendFailed: defineOperation({
    operationId: "resendFailedWebhookDeliveries",
    method: "post",
    path: "/v1/webhooks/{id}/resend_failed",
    tag,
    summary: "Queue the endpoint's failed deliveries again",
    description:
      "Every delivery to this endpoint that gave up, of events created at or after `since`, gets one more attempt " +
      "now, oldest first, at most 500 per call (`has_more`: call again). Recorded in the audit log.",
    scope: "webhooks:write",
    body: resendFailedBody,
    response: webhookResendObject,
    errors: ["not_found"],
  }),
  attempts: defineOperation({
    operationId: "listWebhookEndpointAttempts",
    method: "get",
    path: "/v1/webhooks/{id}/attempts",
    tag,
    summary: "List an endpoint's delivery attempts",
    scope: "webhooks:read",
    query: z.strictObject(attemptPaginationQuery),
    response: webhookAttemptList,
    errors: ["not_found"],
  }),
};
