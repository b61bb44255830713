import { z } from "zod";
import { CHAINS } from "@/lib/kernel/chain-ids";
import { paginationQuery } from "@/lib/kernel/schemas/pagination";
import { listFilterQuery } from "@/lib/kernel/schemas/list-filters";
import { listOf, timestamp } from "@/lib/kernel/schemas/response-fields";

/**
 * What moved a merchant's `available` balance (docs/API.md#balance-transactions): a payment or a deposit address's
 * deposit credited, a credit reversed by a deep reorganization, a payout or refund debited, its amount returned
 * (failed, blocked or canceled), an operator's adjustment.
 */
export const BALANCE_TRANSACTION_TYPES = [
  "payment",
  "payment_reversal",
  "deposit",
  "deposit_reversal",
  "payout",
  "payout_return",
  "refund",
  "refund_return",
  "adjustment",
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

const signedAmount = z
  .string()
  .regex(/^-?\d+\.\d{6}$/)
  .meta({ description: "USDT, a signed decimal string with exactly 6 decimals", examples: ["-25.000000"] });

export const balanceTransactionObject = z
  .strictObject({
    id: z.string().meta({ examples: ["txn_0d6c1f0e8a4b4b6e9c2f6a1d3e5b7c90"] }),
    object: z.literal("balance_transaction"),
    type: z.enum(BALANCE_TRANSACTION_TYPES),
    amount: signedAmount.meta({ description: "What it moved: positive credits `available`, negative debits it." }),
    fee: signedAmount.meta({ description: "What the service charged for it: always 0.000000 today." }),
    net: signedAmount.meta({ description: "`amount` less `fee`." }),
    chain: z.enum(CHAINS),
    source: z
      .string()
      .meta({ description: "The payment, deposit (`dep_…`), payout or refund (or adjustment) it belongs to." }),
    available_after: signedAmount.meta({ description: "`available` on that chain right after it." }),
    created_at: timestamp,
  })
  .meta({ id: "BalanceTransaction" });
export type BalanceTransactionObject = z.output<typeof balanceTransactionObject>;

export const balanceTransactionList = listOf(balanceTransactionObject).meta({ id: "BalanceTransactionList" });

const oneOf = (name: string, values: readonly string[]) => ({ error: `${name} must be one of ${values.join(", ")}` });

export const listBalanceTransactionsQuery = z.strictObject({
  ...paginationQuery,
  type: z.enum(BALANCE_TRANSACTION_TYPES, oneOf("type", BALANCE_TRANSACTION_TYPES)).optional(),
  chain: z.enum(CHAINS, oneOf("chain", CHAINS)).optional(),
  source: z.string({ error: "source must be an object's id" }).min(1).max(100).optional(),
  created: listFilterQuery.created,
});
export type ListBalanceTransactionsQuery = z.output<typeof listBalanceTransactionsQuery>;
