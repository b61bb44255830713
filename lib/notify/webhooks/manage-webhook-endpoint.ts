import { notFound } from "@/lib/kernel/domain-error";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import type { UpdateWebhookInput } from "./schemas";
import { toWebhookEndpointRow, WEBHOOK_ENDPOINT_COLUMNS, type WebhookEndpointRow } from "./webhook-endpoint-row";

type Owner = { merchantId: string; mode: Mode };

/** One live (not deleted) endpoint of this merchant and mode; anything else is 404. */
export async function getWebhookEndpoint(
  db: Db,
  owner: Owner,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<WebhookEndpointRow> {
  const [row] = await query(
    db,
    `select ${WEBHOOK_ENDPOINT_COLUMNS} from webhook_endpoints
     where id = $1 and merchant_id = $2 and mode = $3 and deleted_at is null${opts.forUpdate ? " for update" : ""}`,
    [id, owner.merchantId, owner.mode],
  );
  if (!row) throw notFound("webhook_endpoint", id);
  return toWebhookEndpointRow(row);
}

/**
 * Changes url, events and/or active; `active: false` disables deliveries. A new url comes already checked
 * and normalized by checkEndpointUrl (create-webhook-endpoint.ts), which resolves DNS and so runs before
 * the caller's transaction.
 */
export async function updateWebhookEndpoint(
  db: Db,
  owner: Owner,
  id: string,
  input: Omit<UpdateWebhookInput, "url">,
  checkedUrl: string | undefined,
): Promise<WebhookEndpointRow> {
  const current = await getWebhookEndpoint(db, owner, id, { forUpdate: true });
  const url = checkedUrl ?? current.url;
  const [row] = await query(
    db,
    `update webhook_endpoints set url = $2, events = $3, active = $4, updated_at = now()
     where id = $1 returning ${WEBHOOK_ENDPOINT_COLUMNS}`,
    [id, url, input.events ? [...new Set(input.events)] : current.events, input.active ?? current.active],
  );
  return toWebhookEndpointRow(row!);
}

/** Deletes an endpoint: no further deliveries; its delivery history stays for the dashboard. */
export async function deleteWebhookEndpoint(
  db: Db,
  owner: Owner,
  id: string,
): Promise<{ id: string; object: "webhook_endpoint"; deleted: true }> {
  await getWebhookEndpoint(db, owner, id, { forUpdate: true });
  await query(db, "update webhook_endpoints set deleted_at = now(), active = false, updated_at = now() where id = $1", [
    id,
  ]);
  return { id, object: "webhook_endpoint", deleted: true };
}
