import { getDb, inTransaction } from "@/lib/db/client";
import { allocateWaitingPayments } from "@/lib/payments/allocate-waiting-payments";
import { refillSolanaAddressPool } from "@/lib/wallets/solana-address-pool";
import * as contracts from "@/lib/jobs/contracts";
import { defineJob } from "@/lib/jobs/define-job";

export const refillSolanaAddressPoolJob = defineJob(contracts.refillSolanaAddressPool, async (_payload, helpers) => {
  const { added, allocated } = await inTransaction(getDb(), async (tx) => ({
    added: await refillSolanaAddressPool(tx),
    allocated: await allocateWaitingPayments(tx),
  }));
  if (added > 0 || allocated > 0)
    helpers.logger.info(`solana address pool: ${added} addresses added, ${allocated} waiting payments made payable`);
});
