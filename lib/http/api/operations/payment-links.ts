import { z } from "zod";
import { createPaymentLinkBody, listPaymentLinksQuery } from "@/lib/money-in/payment-links/schemas";
import { paymentLinkObject } from "@/lib/money-in/payment-links/payment-link-object";
import { defineOperation } from "../operation";

const tag = "Payment links";

export const PAYMENT_LINKS = {
  list: defineOperation({
    operationId: "listPaymentLinks",
    method: "get",
    path: "/v1/payment-links",
    tag,
    summary: "List payment links",
    scope: "payment_links:read",
    query: listPaymentLinksQuery,
    response: z
      .strictObject({ object: z.literal("list"), data: z.array(paymentLinkObject) })
      .meta({ id: "PaymentLinkList" }),
  }),
  create: defineOperation({
    operationId: "createPaymentLink",
    method: "post",
    path: "/v1/payment-links",
    tag,
    summary: "Create a payment link",
    scope: "payment_links:write",
    body: createPaymentLinkBody,
    response: paymentLinkObject,
  }),
  retrieve: defineOperation({
    operationId: "retrievePaymentLink",
    method: "get",
    path: "/v1/payment-links/{id}",
    tag,
    summary: "Retrieve a payment link",
    scope: "payment_links:read",
    query: z.strictObject({}),
    response: paymentLinkObject,
    errors: ["not_found"],
  }),
};
