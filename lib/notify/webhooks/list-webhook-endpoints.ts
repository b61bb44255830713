import type { Db } from "@/lib/platform/db/client";
import { keysetPage } from "@/lib/platform/db/keyset-page";
import type { Mode } from "@/lib/kernel/mode";
import { toWebhookEndpointRow, WEBHOOK_ENDPOINT_COLUMNS, type WebhookEndpointRow } from "./webhook-endpoint-row";

export async function listWebhookEndpoints(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  page: { limit?: number; starting_after?: string },
): Promise<{ rows: WebhookEndpointRow[]; hasMore: boolean }> {
  const result = await keysetPage(db, {
    table: "webhook_endpoints",
    columns: WEBHOOK_ENDPOINT_COLUMNS,
    filter: { sql: "merchant_id = $1 and mode = $2 and deleted_at is null", values: [owner.merchantId, owner.mode] },
    limit: page.limit,
    startingAfter: page.starting_after,
    noun: "webhook endpoint",
  });
  return { rows: result.rows.map(toWebhookEndpointRow), hasMore: result.hasMore };
}
