import { apiKeys } from "@/db/schema";
import type { Db } from "@/lib/platform/db/client";
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

export async function createApiKey(
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
