import type { Mode } from "@/lib/keys/api-key-format";
import type { EventType } from "./event-types";

export interface WebhookEndpointRow {
  id: string;
  merchantId: string;
  mode: Mode;
  url: string;
  events: EventType[];
  active: boolean;
  encryptedSecret: string;
  createdAt: Date;
}

export const WEBHOOK_ENDPOINT_COLUMNS = "id, merchant_id, mode, url, events, active, encrypted_secret, created_at";

export function toWebhookEndpointRow(r: Record<string, unknown>): WebhookEndpointRow {
  return {
    id: r.id as string,
    merchantId: r.merchant_id as string,
    mode: r.mode as Mode,
    url: r.url as string,
    events: r.events as EventType[],
    active: r.active as boolean,
    encryptedSecret: r.encrypted_secret as string,
    createdAt: r.created_at as Date,
  };
}

/** Spec 2.5. The secret is added only to the creation response, by the caller. */
export function serializeWebhookEndpoint(row: WebhookEndpointRow) {
  return {
    id: row.id,
    object: "webhook_endpoint" as const,
    url: row.url,
    events: row.events,
    active: row.active,
    created_at: row.createdAt.toISOString(),
  };
}
