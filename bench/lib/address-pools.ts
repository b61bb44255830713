import type { ChainFamily } from "@/lib/chains/chains";
import { refillDepositAddressPool } from "@/lib/chains/wallets/refill-deposit-address-pool";
import { getDb } from "@/lib/platform/db/client";

/**
 * What a worker does ahead of payments (the refill_deposit_address_pool job), done before a benchmark creates
 * them with no worker running, or faster than one refills: at least `count` free sandbox addresses in the
 * family's pool. Costs about 0.5 ms of CPU per address, here and not in what is measured.
 */
export async function fillAddressPool(family: ChainFamily, count: number): Promise<void> {
  await refillDepositAddressPool(getDb(), "sandbox", family, count);
}
