import { merchants } from "@/db/schema";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { newId } from "@/lib/kernel/random";
import { createApiKey, type CreatedApiKey } from "@/lib/identity/api-keys/create-api-key";
import { DEFAULT_SCOPES, SANDBOX_CHAINS_SCOPE, type Scope } from "@/lib/identity/api-keys/scopes";
import { serializeMerchant } from "./serialize-merchant";

/**
 * Creates a merchant with one sandbox and one live key (the default scopes), atomically. `sandboxChains`:
 * the operator's own merchant (the demo of a sandbox-only install, a test's) whose sandbox key may also
 * drive the shared sandbox chains (reorg, drop, freeze, congest).
 */
export async function createMerchant(db: Db, input: { name: string; email: string; sandboxChains?: boolean }) {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .insert(merchants)
      .values({ id: newId("mer_"), name: input.name, email: input.email })
      .returning();
    const keys: CreatedApiKey[] = [];
    for (const mode of ["sandbox", "live"] as const) {
      const scopes: Scope[] | undefined =
        mode === "sandbox" && input.sandboxChains ? [...DEFAULT_SCOPES, SANDBOX_CHAINS_SCOPE] : undefined;
      keys.push(await createApiKey(tx, { merchantId: row!.id, mode, scopes }));
    }
    return { merchant: serializeMerchant(row!), keys };
  });
}
