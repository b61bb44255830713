import { z } from "zod";
import { balanceList } from "@/lib/books/balances/balance-object";
import { defineOperation } from "../operation";

export const BALANCES = {
  list: defineOperation({
    operationId: "listBalances",
    method: "get",
    path: "/v1/balances",
    tag: "Balances",
    summary: "List balances",
    description: "One entry per chain enabled in the key's mode, zeros included.",
    scope: "balances:read",
    query: z.strictObject({}),
    response: balanceList,
  }),
};
