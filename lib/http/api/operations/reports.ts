import { statementObject, statementQuery } from "@/lib/reports/statements/statement-object";
import { defineOperation } from "../operation";

export const REPORTS = {
  statement: defineOperation({
    operationId: "retrieveStatement",
    method: "get",
    path: "/v1/reports/statement",
    tag: "Reports",
    summary: "A period's statement",
    description:
      "Per chain (`chain`, or every chain enabled in the key's mode) for `from` (included) to `to` (excluded): the " +
      "opening balance, the balance transactions' totals by type, the fees and network costs, the closing balance " +
      "(opening plus the totals, to the unit), and the payouts created in the period with their balance transactions.",
    scope: ["balances:read", "payouts:read"],
    query: statementQuery,
    response: statementObject,
  }),
};
