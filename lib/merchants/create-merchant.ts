import { merchants } from "@/db/schema";
import { inTransaction, type Db } from "@/lib/db/client";
import { newId } from "@/lib/crypto/random";
import { createApiKey, type CreatedApiKey } from "@/lib/keys/create-api-key";
import { serializeMerchant } from "./serialize-merchant";

/** Creates a merchant with one sandbox and one live key (all scopes), atomically. */
export async function createMerchant(db: Db, input: { name: string; email: string }) {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .insert(merchants)
      .values({ id: newId("mer_"), name: input.name, email: input.email })
      .returning();
    const keys: CreatedApiKey[] = [];
    for (const mode of ["sandbox", "live"] as const) keys.push(await createApiKey(tx, { merchantId: row!.id, mode }));
    return { merchant: serializeMerchant(row!), keys };
  });
}
