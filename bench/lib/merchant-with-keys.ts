import { createApiKey } from "@/lib/identity/api-keys/create-api-key";
import { createMerchant } from "@/lib/identity/merchants/create-merchant";
import { getDb, inTransaction } from "@/lib/platform/db/client";

/**
 * The benchmarks' merchant with `count` sandbox keys, enough that the per-key rate limit (60 a minute) never
 * binds when a run spreads its requests over them. Past the first, each is made as a roll of the one before (a roll
 * is not held to the 100 working keys a merchant may have per mode), so a run can have thousands.
 */
export async function merchantWithKeys(count: number): Promise<{ merchantId: string; secrets: string[] }> {
  const { merchant } = await createMerchant(getDb(), { name: "Bench", email: "bench@example.com" });
  const secrets: string[] = [];
  await inTransaction(getDb(), async (tx) => {
    let replacesKeyId: string | undefined;
    for (let i = 0; i < count; i++) {
      const key = await createApiKey(tx, { merchantId: merchant.id, mode: "sandbox", replacesKeyId });
      secrets.push(key.secret);
      replacesKeyId = key.id;
    }
  });
  return { merchantId: merchant.id, secrets };
}
