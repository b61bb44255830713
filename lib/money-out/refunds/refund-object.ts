import { z } from "zod";
import { CHAINS } from "@/lib/kernel/chain-ids";
import { amountString, metadataObject, timestamp } from "@/lib/kernel/schemas/response-fields";
import { REFUND_FAILURE_CODES } from "./refund-lifecycle";
import { REFUND_DESTINATIONS, REFUND_REASONS, REFUND_STATUSES } from "./schemas";

const FAILURE_CODES = Object.keys(REFUND_FAILURE_CODES) as [keyof typeof REFUND_FAILURE_CODES];

/** The refund object as serializeRefund renders it (docs/API.md#the-refund-object). */
export const refundObject = z
  .object({
    id: z.string().meta({ examples: ["re_7Hq2mX9pL4vT"] }),
    object: z.literal("refund"),
    payment: z.string().meta({ description: "The payment refunded." }),
    amount: amountString,
    currency: z.literal("USDT"),
    chain: z.enum(CHAINS).meta({ description: "The payment's chain: a refund goes back on it." }),
    status: z.enum(REFUND_STATUSES),
    destination: z.enum(REFUND_DESTINATIONS),
    to_address: z.string().nullable().meta({ description: "Null until the payer gives it on the claim page." }),
    claim_url: z
      .url()
      .nullable()
      .meta({
        description:
          "Where the payer gives the address, a secret that moves the money: " +
          "only in the response that creates the refund or regenerates its link, " +
          "and from `GET /v1/refunds/{id}` to keys with `refunds:write`, while it waits for the address. " +
          "Null elsewhere (lists, events, webhooks, the event stream, read-only keys).",
      }),
    claim_pending: z.boolean().meta({
      description: "True while a `claim` refund waits for the payer's address (`requires_action`).",
    }),
    claim_code_required: z.boolean().meta({
      description: "The claim page also asks for a one-time code the merchant sends the payer by another channel.",
    }),
    claim_code: z
      .string()
      .nullable()
      .meta({
        description:
          "The 8-digit code, only in the response that creates the refund or regenerates its link (stored hashed: it " +
          "cannot be read again). Null otherwise.",
        examples: ["40718236"],
      }),
    tx_hash: z.string().nullable(),
    confirmations: z.int().min(0).nullable(),
    reason: z.enum(REFUND_REASONS).nullable(),
    metadata: metadataObject,
    failure_code: z.enum(FAILURE_CODES).nullable(),
    failure_message: z.string().nullable(),
    created_at: timestamp,
    expires_at: timestamp.nullable().meta({ description: "When an unclaimed claim is canceled." }),
    succeeded_at: timestamp.nullable(),
  })
  .meta({ id: "Refund", description: "USDT a payment received, sent back to the payer." });
export type RefundObject = z.input<typeof refundObject>;
