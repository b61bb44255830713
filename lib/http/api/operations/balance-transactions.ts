import { z } from "zod";
import {
  balanceTransactionList,
  balanceTransactionObject,
  listBalanceTransactionsQuery,
} from "@/lib/reports/balance-transactions/balance-transaction-object";
import { defineOperation } from "../operation";

const tag = "Balance transactions";

export const BALANCE_TRANSACTIONS = {
  list: defineOperation({
    operationId: "listBalanceTransactions",
    method: "get",
    path: "/v1/balance_transactions",
    tag,
    summary: "List balance transactions",
    description:
      "Every movement of `available`, newest first in the order it moved each chain's balance: the sum of a range's " +
      "`net` is the change of `available_after` over it, to the unit. `type`, `chain`, `source` and " +
      "`created[…]` narrow the list.",
    scope: "balances:read",
    query: listBalanceTransactionsQuery,
    response: balanceTransactionList,
  }),
  retrieve: defineOperation({
    operationId: "retrieveBalanceTransaction",
    method: "get",
    path: "/v1/balance_transactions/{id}",
    tag,
    summary: "Retrieve a balance transaction",
    scope: "balances:read",
    query: z.strictObject({}),
    response: balanceTransactionObject,
    errors: ["not_found"],
  }),
};
