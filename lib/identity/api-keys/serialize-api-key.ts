import type { apiKeys } from "@/db/schema";

type ApiKeyRow = typeof apiKeys.$inferSelect;

/** The public view of a key: never the secret or its hash, only what identifies it to a person. */
export function serializeApiKey(row: ApiKeyRow, nowMs = Date.now()) {
  // A rolled key keeps working until its revoked_at (the overlap): "expiring" until then.
  const status = !row.revokedAt ? "active" : row.revokedAt.getTime() > nowMs ? "expiring" : "revoked";
  return {
    id: row.id,
    object: "api_key" as const,
    merchant_id: row.merchantId,
    mode: row.mode,
    display: `${row.displayPrefix}…${row.last4}`,
    scopes: row.scopes,
    status: status as "active" | "expiring" | "revoked",
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    replaces: row.replacesKeyId,
  };
}
