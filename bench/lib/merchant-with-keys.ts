import { createApiKey } from "@/lib/identity/api-keys/create-api-key";
import { createMerchant } from "@/lib/identity/merchants/create-merchant";
import { getDb, inTransaction } from "@/lib/platform/db/client";

/**
 * The benchmarks' merchant with `count` sandbox keys, enough that the per-key rate limit (60 a minute) never
 * binds when a run spreads its requests over them.
 */
export async function merchantWithKeys(count: number): Promise<{ merchantId: string; secrets: string[] }> {
  const { merchant } = await createMerchant(getDb(), { name: "Bench", email: "bench@example.com" });
  const secrets: string[] = [];
  await inTransaction(getDb(), async (tx) => {
    for (let i = 0; i < count; i++)
      secrets.push((await createApiKey(tx, { merchantId: merchant.id, mode: "sandbox" })).secret);
  });
  return { merchantId: merchant.id, secrets };
}
