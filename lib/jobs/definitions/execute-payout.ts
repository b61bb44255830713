import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { executePayout } from "@/lib/payouts/execute-payout";
import { defineJob } from "../define-job";

export const executePayoutJob = defineJob({
  name: "execute_payout",
  description:
    "Takes a pending payout one step: blocked (deny-list), held for review (policy), queued for the outbound engine, or waiting for treasury liquidity (asks for sweeps and retries).",
  payload: z.object({ payout_id: z.string().startsWith("pay_out_") }),
  handler: async (payload) => {
    await executePayout(getDb(), payload.payout_id);
  },
});
