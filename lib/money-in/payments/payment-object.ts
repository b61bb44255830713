import { z } from "zod";
import { CHAINS } from "@/lib/kernel/chain-ids";
import { amountString, metadataObject, timestamp } from "@/lib/kernel/schemas/response-fields";
import { PAYMENT_STATUSES } from "@/db/schema/payments";

/** The payment object as serializePayment renders it (docs/API.md#the-payment-object). */
export const paymentObject = z
  .object({
    id: z.string().meta({ examples: ["pay_3kTm9qW2xY8vN4bR"] }),
    object: z.literal("payment"),
    status: z.enum(PAYMENT_STATUSES),
    chain: z.enum(CHAINS).nullable().meta({ description: "Null until the payer picks a network." }),
    amount: amountString,
    currency: z.literal("USDT"),
    amount_received: amountString.meta({
      description: "Every USDT transfer seen to the deposit address on its chain, added up.",
    }),
    amount_refunded: amountString.meta({
      description: "Refunds of this payment that are not failed or canceled, added up (the payment keeps its status).",
    }),
    deposit_address: z.string().nullable(),
    description: z.string().optional(),
    metadata: metadataObject,
    customer: z.string().nullable().meta({ description: "The customer (`cus_…`) it was made for, if one was named." }),
    checkout_url: z.url(),
    tx_hash: z.string().nullable().meta({ description: "The transfer that completed the payment." }),
    payer_address: z.string().nullable().meta({
      description:
        "Who sent the transfer that completed the payment (`tx_hash`), when the chain says; null until then.",
    }),
    transfers: z
      .array(
        z.object({
          from: z.string().nullable(),
          amount: amountString,
          tx_hash: z.string(),
          status: z.enum(["pending", "credited"]),
        }),
      )
      .meta({
        description:
          "Every transfer into the payment on its chain, " +
          "in chain order (a payment paid in several parts, or overpaid, has several).",
      }),
    confirmations: z.int().min(0),
    expires_at: timestamp,
    created_at: timestamp,
    confirmed_at: timestamp.optional(),
  })
  .meta({ id: "Payment", description: "A request to be paid an amount of USDT on one of the chains." });
export type PaymentObject = z.input<typeof paymentObject>;

/** A payment in a list: the documented subset. */
export const paymentListItem = paymentObject
  .pick({ id: true, object: true, status: true, chain: true, amount: true, currency: true, created_at: true })
  .meta({ id: "PaymentListItem" });
export type PaymentListItem = z.input<typeof paymentListItem>;

/** What POST /v1/payments/{id}/replay answers. */
export const replayResultObject = z
  .object({
    event: z.string().meta({ examples: ["payment.confirmed"] }),
    dispatched: z.int().min(0),
    deliveries: z.array(
      z.strictObject({ endpointId: z.string(), url: z.string(), success: z.boolean(), statusCode: z.int() }),
    ),
  })
  .meta({ id: "ReplayResult" });

/** What POST /v1/sandbox/payments/{id}/simulate answers: the sandbox transfer it sent. */
export const simulatedTransferObject = z
  .object({
    object: z.literal("sandbox_transfer"),
    payment: z.string(),
    chain: z.enum(CHAINS),
    from: z.string(),
    to: z.string(),
    amount: amountString,
    tx_hash: z.string(),
  })
  .meta({ id: "SandboxTransfer" });
