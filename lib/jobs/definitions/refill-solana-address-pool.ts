import { z } from "zod";
import { getDb, inTransaction } from "@/lib/db/client";
import { allocateWaitingPayments } from "@/lib/payments/allocate-waiting-payments";
import { refillSolanaAddressPool } from "@/lib/wallets/solana-address-pool";
import { defineJob } from "../define-job";

export const refillSolanaAddressPoolJob = defineJob({
  name: "refill_solana_address_pool",
  description:
    "Tops the live Solana deposit address pool up from the live seed (a worker without the seed does nothing), then gives payments waiting for an address theirs.",
  payload: z.object({}),
  cron: "* * * * *",
  handler: async (_payload, helpers) => {
    const { added, allocated } = await inTransaction(getDb(), async (tx) => ({
      added: await refillSolanaAddressPool(tx),
      allocated: await allocateWaitingPayments(tx),
    }));
    if (added > 0 || allocated > 0)
      helpers.logger.info(`solana address pool: ${added} addresses added, ${allocated} waiting payments made payable`);
  },
});
