import { z } from "zod";
import { createPayoutBody, listPayoutsQuery } from "@/lib/money-out/payouts/schemas";
import { payoutObject } from "@/lib/money-out/payouts/payout-object";
import { listOf } from "@/lib/kernel/schemas/response-fields";
import { defineOperation } from "../operation";

const tag = "Payouts";

// Payout endpoints share their own window per key (docs/API.md#rate-limits).
export const PAYOUTS = {
  list: defineOperation({
    operationId: "listPayouts",
    method: "get",
    path: "/v1/payouts",
    tag,
    summary: "List payouts",
    scope: "payouts:read",
    rateLimit: "payouts",
    query: listPayoutsQuery,
    response: listOf(payoutObject).meta({ id: "PayoutList" }),
  }),
  create: defineOperation({
    operationId: "createPayout",
    method: "post",
    path: "/v1/payouts",
    tag,
    summary: "Create a payout",
    description:
      "Debits `available` on the chain at once; the transfer is signed and sent by the worker. Refused " +
      "destinations (the deny-list, the service's own addresses) are a 400 naming `to_address`.",
    scope: "payouts:write",
    rateLimit: "payouts",
    body: createPayoutBody,
    response: payoutObject,
    errors: ["insufficient_balance", "chain_disabled"],
  }),
  retrieve: defineOperation({
    operationId: "retrievePayout",
    method: "get",
    path: "/v1/payouts/{id}",
    tag,
    summary: "Retrieve a payout",
    scope: "payouts:read",
    rateLimit: "payouts",
    query: z.strictObject({}),
    response: payoutObject,
    errors: ["not_found"],
  }),
};
