import type { WebhookEndpointObject } from "./webhook-objects";
import { webhookEndpoints } from "@/db/schema/webhooks";
import { rowMapper } from "@/lib/platform/db/row-mapper";

/** A webhook_endpoints row, typed by the schema (events narrowed there). */
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/** Select list and mapper derived from the table: every column, so none can be forgotten. */
export const webhookEndpointRow = rowMapper(webhookEndpoints);
export const WEBHOOK_ENDPOINT_COLUMNS = webhookEndpointRow.columns;
export const toWebhookEndpointRow = webhookEndpointRow.map;

/**
 * The webhook endpoint object (docs/API.md#the-webhook-endpoint-object). The secret is added only to the creation
 * response, by the caller.
 */
export function serializeWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpointObject {
  return {
    id: row.id,
    object: "webhook_endpoint" as const,
    url: row.url,
    events: row.events,
    active: row.active,
    created_at: row.createdAt.toISOString(),
  };
}
