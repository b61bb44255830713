import { z } from "zod";
import { listOf } from "@/lib/kernel/schemas/response-fields";
import { refundObject } from "@/lib/money-out/refunds/refund-object";
import { createRefundBody, listRefundsQuery } from "@/lib/money-out/refunds/schemas";
import { defineOperation } from "../operation";

const tag = "Refunds";

export const REFUNDS = {
  list: defineOperation({
    operationId: "listRefunds",
    method: "get",
    path: "/v1/refunds",
    tag,
    summary: "List refunds",
    description: "Newest first; `payment` and `status` narrow the list.",
    scope: "refunds:read",
    query: listRefundsQuery,
    response: listOf(refundObject).meta({ id: "RefundList" }),
  }),
  create: defineOperation({
    operationId: "createRefund",
    method: "post",
    path: "/v1/refunds",
    tag,
    summary: "Refund a payment",
    description:
      "Debits `available` on the payment's chain at once, up to what the payment received (credited) less earlier refunds. " +
      "`destination`: `claim` (the default) gives a `claim_url` where the payer enters the address; `sender` sends back to " +
      "the address the payment came from (never an exchange's deposit address: it may not be the payer's); `address` sends to " +
      "`to_address`. The transfer is signed and sent by the worker.",
    scope: "refunds:write",
    body: createRefundBody,
    response: refundObject,
    errors: ["insufficient_balance", "chain_disabled"],
  }),
  retrieve: defineOperation({
    operationId: "retrieveRefund",
    method: "get",
    path: "/v1/refunds/{id}",
    tag,
    summary: "Retrieve a refund",
    scope: "refunds:read",
    query: z.strictObject({}),
    response: refundObject,
    errors: ["not_found"],
  }),
  cancel: defineOperation({
    operationId: "cancelRefund",
    method: "post",
    path: "/v1/refunds/{id}/cancel",
    tag,
    summary: "Cancel a refund",
    description:
      "Only before its transfer is signed (`requires_action` or `pending`): the amount returns to `available`.",
    scope: "refunds:write",
    body: z.strictObject({}),
    response: refundObject,
    errors: ["not_found"],
  }),
};
