import { CHAIN_FAMILIES, POOL_PURPOSES } from "@/lib/kernel/chain-ids";
import { MODES } from "@/lib/kernel/mode";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { allocateWaitingPayments } from "@/lib/money-in/payments/allocate-waiting-payments";
import { refillDepositAddressPool } from "@/lib/chains/wallets/refill-deposit-address-pool";
import * as contracts from "@/lib/platform/jobs/contracts";
import { defineJob } from "@/lib/platform/jobs/define-job";

export const refillDepositAddressPoolJob = defineJob(contracts.refillDepositAddressPool, async (payload, helpers) => {
  for (const mode of payload.mode ? [payload.mode] : MODES) {
    for (const family of payload.family ? [payload.family] : CHAIN_FAMILIES) {
      for (const purpose of payload.purpose ? [payload.purpose] : POOL_PURPOSES) {
        const added = await refillDepositAddressPool(getDb(), mode, family, undefined, purpose);
        // Waiting payments take addresses as any claim does: in their own transaction, after the refill's.
        let allocated = 0;
        while (purpose === "payment") {
          const batch = await inTransaction(getDb(), (tx) => allocateWaitingPayments(tx, mode, family));
          if (batch === 0) break;
          allocated += batch;
        }
        if (added > 0 || allocated > 0)
          helpers.logger.info(
            `${mode} ${family} ${purpose} address pool: ${added} added, ${allocated} waiting payments made payable`,
          );
      }
    }
  }
});
