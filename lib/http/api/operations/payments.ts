import { z } from "zod";
import { createPaymentBody, listPaymentsQuery } from "@/lib/money-in/payments/schemas";
import {
  paymentListItem,
  paymentObject,
  replayResultObject,
  simulatedTransferObject,
} from "@/lib/money-in/payments/payment-object";
import { listOf } from "@/lib/kernel/schemas/response-fields";
import { defineOperation } from "../operation";
import { simulateBody } from "../sandbox-schemas";

const tag = "Payments";

export const PAYMENTS = {
  list: defineOperation({
    operationId: "listPayments",
    method: "get",
    path: "/v1/payments",
    tag,
    summary: "List payments",
    description: "Newest first. Page with `starting_after` (the last id of the previous page).",
    scope: "payments:read",
    query: listPaymentsQuery,
    response: listOf(paymentListItem).meta({ id: "PaymentList" }),
  }),
  create: defineOperation({
    operationId: "createPayment",
    method: "post",
    path: "/v1/payments",
    tag,
    summary: "Create a payment",
    description:
      "Without `chain`, the payer picks the network at checkout. The deposit address is single-use; send the " +
      "payer to `checkout_url` or show the address yourself.",
    scope: "payments:write",
    body: createPaymentBody,
    response: paymentObject,
    errors: ["chain_disabled"],
  }),
  retrieve: defineOperation({
    operationId: "retrievePayment",
    method: "get",
    path: "/v1/payments/{id}",
    tag,
    summary: "Retrieve a payment",
    scope: "payments:read",
    query: z.strictObject({}),
    response: paymentObject,
    errors: ["not_found"],
  }),
  replay: defineOperation({
    operationId: "replayPaymentEvent",
    method: "post",
    path: "/v1/payments/{id}/replay",
    tag,
    summary: "Send the payment's current event to your endpoints again",
    scope: "payments:write",
    rateLimit: "replay",
    body: z.strictObject({}),
    response: replayResultObject,
    errors: ["not_found"],
  }),
  simulate: defineOperation({
    operationId: "simulatePayment",
    method: "post",
    path: "/v1/sandbox/payments/{id}/simulate",
    tag: "Sandbox",
    summary: "Pay a sandbox payment from the sandbox wallet",
    description: "Sends a real transfer on the local chain (the whole amount unless `amount` is given).",
    scope: "payments:write",
    sandboxOnly: true,
    body: simulateBody,
    response: simulatedTransferObject,
    errors: ["not_found", "chain_disabled"],
  }),
};
