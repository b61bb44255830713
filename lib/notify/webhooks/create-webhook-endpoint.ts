import { DomainError } from "@/lib/kernel/domain-error";
import type { AppConfig } from "@/lib/platform/config/env";
import { newId, randomBase62 } from "@/lib/kernel/random";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { encryptSecret } from "@/lib/platform/secrets/encryption";
import { masterKey } from "@/lib/platform/secrets/master-key";
import { checkWebhookUrl, privateUrlsAllowed, type Resolver } from "./check-webhook-url";
import type { CreateWebhookInput } from "./schemas";
import { toWebhookEndpointRow, WEBHOOK_ENDPOINT_COLUMNS, type WebhookEndpointRow } from "./webhook-endpoint-row";

export const WEBHOOK_SECRET_PURPOSE = "webhook-secret";

/** Endpoints per merchant and mode (deleted ones do not count): each event fans out to all of them. */
export const MAX_WEBHOOK_ENDPOINTS = 16;

/**
 * A webhook URL checked (https, public host: every resolved address public) and normalized, or the 400 for
 * `param: "url"`. Resolves DNS: callers run it before their transaction (docs/API-DECISIONS.md#idempotency).
 */
export async function checkEndpointUrl(
  mode: Mode,
  url: string,
  opts: { resolve?: Resolver; config?: AppConfig } = {},
): Promise<string> {
  const checked = await checkWebhookUrl(url, {
    allowPrivate: privateUrlsAllowed(mode, opts.config),
    resolve: opts.resolve,
  });
  if (!checked.ok) throw new DomainError("invalid_request_error", checked.message, { param: "url" });
  return checked.value.url.toString();
}

/** Registers an endpoint: its URL checked first, then the row in a transaction of its own. */
export async function createWebhookEndpoint(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  input: CreateWebhookInput,
  opts: { resolve?: Resolver; config?: AppConfig } = {},
): Promise<{ row: WebhookEndpointRow; secret: string }> {
  const url = await checkEndpointUrl(owner.mode, input.url, opts);
  return inTransaction(db, (tx) => insertWebhookEndpoint(tx, owner, input, url));
}

/**
 * Inserts an endpoint whose URL checkEndpointUrl returned (inside the caller's transaction). Returns the row
 * and the signing secret, which exists in clear only in this response.
 */
export async function insertWebhookEndpoint(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  input: CreateWebhookInput,
  checkedUrl: string,
): Promise<{ row: WebhookEndpointRow; secret: string }> {
  await requireEndpointRoom(db, owner);
  // 43 base62 characters ≈ 256 bits (the floor is 192).
  const secret = `whsec_${randomBase62(43)}`;
  const [row] = await query(
    db,
    `insert into webhook_endpoints (id, merchant_id, mode, url, events, active, encrypted_secret, created_at)
     values ($1, $2, $3, $4, $5, true, $6, now()) returning ${WEBHOOK_ENDPOINT_COLUMNS}`,
    [
      newId("wh_"),
      owner.merchantId,
      owner.mode,
      checkedUrl,
      [...new Set(input.events ?? [])],
      encryptSecret(masterKey(), Buffer.from(secret), WEBHOOK_SECRET_PURPOSE),
    ],
  );
  return { row: toWebhookEndpointRow(row!), secret };
}

/** Refuses a 17th endpoint; concurrent creates of one merchant and mode queue on a lock, so none slips past. */
async function requireEndpointRoom(db: Db, owner: { merchantId: string; mode: Mode }): Promise<void> {
  await query(db, "select pg_advisory_xact_lock(hashtextextended($1, 0))", [
    `webhook_endpoints:${owner.merchantId}:${owner.mode}`,
  ]);
  const [row] = await query<{ n: number }>(
    db,
    "select count(*)::int as n from webhook_endpoints where merchant_id = $1 and mode = $2 and deleted_at is null",
    [owner.merchantId, owner.mode],
  );
  if (row!.n >= MAX_WEBHOOK_ENDPOINTS) {
    throw new DomainError(
      "invalid_request_error",
      `You have ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints in ${owner.mode} mode, the most allowed; delete one first.`,
    );
  }
}
