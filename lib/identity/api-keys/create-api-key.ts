import { apiKeys } from "@/db/schema";
import { DomainError } from "@/lib/kernel/domain-error";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { newId } from "@/lib/kernel/random";
import type { Mode } from "@/lib/kernel/mode";
import { generateKeySecret } from "./api-key-format";
import { DEFAULT_SCOPES, type Scope } from "./scopes";

export interface CreatedApiKey {
  id: string;
  mode: Mode;
  /** The only time the secret exists outside the caller's hands: shown once, stored as a hash. */
  secret: string;
  scopes: Scope[];
}

/** Working keys a merchant may hold per mode (a roll's new key is not counted against it: it replaces one). */
export const MAX_KEYS_PER_MODE = 100;

/**
 * A new key, its secret returned this once. Refused (param `mode`) when the merchant already holds
 * MAX_KEYS_PER_MODE working keys in the mode: keys cost the service (each may hold event streams) and a tenant
 * with unlimited keys could starve the others. Counted under a per-(merchant, mode) lock, so concurrent
 * creations cannot pass it together.
 */
export async function createApiKey(
  db: Db,
  input: { merchantId: string; mode: Mode; scopes?: Scope[]; replacesKeyId?: string; createdByUserId?: string | null },
): Promise<CreatedApiKey> {
  return inTransaction(db, async (tx) => {
    if (!input.replacesKeyId) await requireRoomForKey(tx, input.merchantId, input.mode);
    return insertKey(tx, input);
  });
}

async function requireRoomForKey(tx: Db, merchantId: string, mode: Mode): Promise<void> {
  await execute(tx, "select pg_advisory_xact_lock(hashtextextended($1, 0))", [`api_keys:${merchantId}:${mode}`]);
  const [held] = await query<{ n: number }>(
    tx,
    `select count(*)::int as n from api_keys
      where merchant_id = $1 and mode = $2 and (revoked_at is null or revoked_at > now())`,
    [merchantId, mode],
  );
  if (held!.n >= MAX_KEYS_PER_MODE)
    throw new DomainError(
      "invalid_request_error",
      `This account already has ${MAX_KEYS_PER_MODE} working ${mode} API keys: revoke one it no longer uses first.`,
      { param: "mode" },
    );
}

async function insertKey(
  db: Db,
  input: { merchantId: string; mode: Mode; scopes?: Scope[]; replacesKeyId?: string; createdByUserId?: string | null },
): Promise<CreatedApiKey> {
  const generated = generateKeySecret(input.mode);
  const scopes = input.scopes ?? DEFAULT_SCOPES;
  const id = newId("key_");
  await db.insert(apiKeys).values({
    id,
    merchantId: input.merchantId,
    mode: input.mode,
    secretHash: generated.secretHash,
    displayPrefix: generated.displayPrefix,
    last4: generated.last4,
    scopes,
    replacesKeyId: input.replacesKeyId ?? null,
    createdByUserId: input.createdByUserId ?? null,
  });
  return { id, mode: input.mode, secret: generated.secret, scopes };
}
