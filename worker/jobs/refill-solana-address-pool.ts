import { getDb, inTransaction } from "@/lib/platform/db/client";
import { allocateWaitingPayments } from "@/lib/money-in/payments/allocate-waiting-payments";
import { refillSolanaAddressPool } from "@/lib/chains/wallets/solana-address-pool";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

export const refillSolanaAddressPoolJob = defineJob(contracts.refillSolanaAddressPool, async (_payload, helpers) => {
  const { added, allocated } = await inTransaction(getDb(), async (tx) => ({
    added: await refillSolanaAddressPool(tx),
    allocated: await allocateWaitingPayments(tx),
  }));
  if (added > 0 || allocated > 0)
    helpers.logger.info(`solana address pool: ${added} addresses added, ${allocated} waiting payments made payable`);
});
