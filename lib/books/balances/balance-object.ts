import { z } from "zod";
import { CHAINS } from "@/lib/kernel/chain-ids";
import { amountString } from "@/lib/kernel/schemas/response-fields";

/** One chain's balance as listBalances renders it (docs/API.md#balances). */
export const balanceObject = z
  .object({
    chain: z.enum(CHAINS),
    symbol: z.literal("USDT"),
    available: amountString.meta({ description: "Withdrawable now." }),
    reserved: amountString.meta({ description: "Detected for payments not yet confirmed." }),
    in_flight: amountString.meta({
      description: "Debited for payouts and refunds on their way out (not yet confirmed, failed or canceled).",
    }),
  })
  .meta({ id: "Balance" });
export type BalanceObject = z.input<typeof balanceObject>;

/** GET /v1/balances: one entry per chain enabled in the key's mode, zeros included. */
export const balanceList = z
  .object({ object: z.literal("list"), data: z.array(balanceObject) })
  .meta({ id: "BalanceList" });
