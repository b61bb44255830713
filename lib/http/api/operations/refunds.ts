import { z } from "zod";
import { listOf } from "@/lib/kernel/schemas/response-fields";
import { refundObject } from "@/lib/money-out/refunds/refund-object";
import { createRefundBody, listRefundsQuery, regenerateClaimBody } from "@/lib/money-out/refunds/schemas";
import { defineOperation } from "../operation";

const tag = "Refunds";

export const REFUNDS = {
  list: defineOperation({
    operationId: "listRefunds",
    method: "get",
    path: "/v1/refunds",
    tag,
    summary: "List refunds",
    description: "Newest first; `payment` and `status` narrow the list. Items never carry `claim_url`.",
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
      "Debits `available` on the payment's chain at once, up to what the payment received (credited) " +
      "less earlier refunds. `destination`: `claim` (the default) gives a `claim_url` where the " +
      "payer enters the address; `sender` sends back to the address the payment came from (never " +
      "an exchange's deposit address: it may not be the payer's); `address` sends to `to_address`. " +
      "The transfer is signed and sent by the worker. `claim_url` (and `claim_code` with `require_claim_code`) " +
      "are secrets: this response is the only place the code is ever shown.",
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
    description: "`claim_url` is given only to keys with `refunds:write`; `claim_code` never.",
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
  regenerateClaimUrl: defineOperation({
    operationId: "regenerateRefundClaimUrl",
    method: "post",
    path: "/v1/refunds/{id}/regenerate_claim_url",
    tag,
    summary: "Regenerate a refund's claim link",
    description:
      "Only while the refund waits for the payer's address (`requires_action`): a new `claim_url` (and a new " +
      "`claim_code` when one is required), the old link and code refused from now on, the claim window unchanged. " +
      "`require_claim_code` turns the code on or off; by default it stays as it was.",
    scope: "refunds:write",
    body: regenerateClaimBody,
    response: refundObject,
    errors: ["not_found"],
  }),
};
