import { z } from "zod";
import { CHAINS } from "@/lib/kernel/chain-ids";
import { momentField } from "@/lib/kernel/schemas/list-filters";
import { timestamp } from "@/lib/kernel/schemas/response-fields";
import { payoutObject } from "@/lib/money-out/payouts/payout-object";
import {
  BALANCE_TRANSACTION_TYPES,
  balanceTransactionObject,
} from "../balance-transactions/balance-transaction-object";

/** How many payouts one statement lists per chain; the rest are in the payouts list for the same range. */
export const STATEMENT_PAYOUTS_LIMIT = 1000;

export const statementQuery = z
  .strictObject({
    chain: z.enum(CHAINS, { error: `chain must be one of ${CHAINS.join(", ")}` }).optional(),
    from: momentField("from").meta({ description: "The period's start (included)." }),
    to: momentField("to").meta({ description: "The period's end (excluded)." }),
  })
  .refine((q) => q.to > q.from, { error: "to must be after from", path: ["to"] });
export type StatementQuery = z.output<typeof statementQuery>;

const usdt = z.string().regex(/^-?\d+\.\d{6}$/);
const native = z.string().meta({ description: "The chain's native coin, exact (18, 6 or 9 decimals)." });

const costFigure = z.strictObject({ count: z.int(), total: native });

export const statementChain = z.strictObject({
  chain: z.enum(CHAINS),
  opening_balance: usdt.meta({ description: "`available` at `from`." }),
  closing_balance: usdt.meta({ description: "`available` at `to`: opening balance plus every total." }),
  totals: z
    .record(z.enum(BALANCE_TRANSACTION_TYPES), usdt)
    .meta({ description: "The balance transactions of the period summed by type (every type, zeros included)." }),
  transactions: z.int().meta({ description: "How many balance transactions the period holds." }),
  fees: usdt.meta({ description: "What the service charged: 0.000000." }),
  network_costs: z
    .strictObject({
      symbol: z.string(),
      payments: costFigure,
      deposits: costFigure,
      payouts: costFigure,
      refunds: costFigure,
      total: native,
    })
    .meta({
      description: "Network fees of the period's transactions for you, paid by the operator, not by `available`.",
    }),
  payouts: z
    .array(payoutObject.extend({ balance_transactions: z.array(balanceTransactionObject) }))
    .meta({ description: "The payouts created in the period, oldest first, each with its balance transactions." }),
  has_more_payouts: z.boolean(),
});

export const statementObject = z
  .strictObject({
    object: z.literal("statement"),
    from: timestamp,
    to: timestamp,
    chains: z.array(statementChain),
  })
  .meta({ id: "Statement" });
export type StatementObject = z.output<typeof statementObject>;
export type StatementChain = z.output<typeof statementChain>;
