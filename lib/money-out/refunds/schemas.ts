import { z } from "zod";
import { metadataField } from "@/lib/kernel/schemas/metadata";
import { amountField } from "@/lib/kernel/schemas/common";
import { paginationQuery } from "@/lib/kernel/schemas/pagination";

export const REFUND_STATUSES = ["requires_action", "pending", "processing", "succeeded", "failed", "canceled"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Where the money goes (docs/REFUNDS.md, "Destinations"): `claim`, the default, asks the payer. */
export const REFUND_DESTINATIONS = ["claim", "sender", "address"] as const;
export type RefundDestination = (typeof REFUND_DESTINATIONS)[number];

export const REFUND_REASONS = [
  "requested_by_customer",
  "duplicate",
  "overpayment",
  "late_payment",
  "fraudulent",
] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

const oneOf = (name: string, values: readonly string[]) => ({ error: `${name} must be one of ${values.join(", ")}` });

export const createRefundBody = z
  .strictObject({
    payment: z
      .string({ error: "payment must be a payment id" })
      .min(1, { error: "payment must be a payment id" })
      .max(100, { error: "payment must be a payment id" }),
    amount: amountField("exact").optional().meta({
      description: "What to refund; by default all that the payment received and was not yet refunded.",
    }),
    destination: z.enum(REFUND_DESTINATIONS, oneOf("destination", REFUND_DESTINATIONS)).default("claim"),
    to_address: z
      .string({ error: "to_address must be a string" })
      .min(1, { error: "to_address must not be empty" })
      .max(100, { error: "to_address is too long" })
      .optional(),
    reason: z.enum(REFUND_REASONS, oneOf("reason", REFUND_REASONS)).optional(),
    metadata: metadataField.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.destination === "address" && body.to_address === undefined)
      ctx.addIssue({
        code: "custom",
        message: 'to_address is required with destination "address"',
        path: ["to_address"],
      });
    if (body.destination !== "address" && body.to_address !== undefined)
      ctx.addIssue({
        code: "custom",
        message: `to_address is only given with destination "address" (not "${body.destination}")`,
        path: ["to_address"],
      });
  });
export type CreateRefundInput = z.output<typeof createRefundBody>;

export const listRefundsQuery = z.strictObject({
  ...paginationQuery,
  payment: z.string({ error: "payment must be a payment id" }).max(100).optional(),
  status: z.enum(REFUND_STATUSES, oneOf("status", REFUND_STATUSES)).optional(),
});
export type ListRefundsQuery = z.output<typeof listRefundsQuery>;
