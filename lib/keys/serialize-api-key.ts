import type { apiKeys } from "@/db/schema";

type ApiKeyRow = typeof apiKeys.$inferSelect;

/** The public view of a key: never the secret or its hash, only what identifies it to a person. */
export function serializeApiKey(row: ApiKeyRow) {
  return {
    id: row.id,
    object: "api_key" as const,
    merchant_id: row.merchantId,
    mode: row.mode,
    display: `${row.displayPrefix}…${row.last4}`,
    scopes: row.scopes,
    status: row.revokedAt ? ("revoked" as const) : ("active" as const),
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    replaces: row.replacesKeyId,
  };
}
