import { z } from "zod";
import { metadataField } from "@/lib/kernel/schemas/metadata";
import { amountField } from "@/lib/kernel/schemas/common";
import { paginationQuery } from "@/lib/kernel/schemas/pagination";
import { listFilterQuery } from "@/lib/kernel/schemas/list-filters";
import { chainField } from "@/lib/chains/chain-field";

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

const requireClaimCode = z
  .boolean({ error: "require_claim_code must be true or false" })
  .optional()
  .meta({
    description:
      "The claim page also asks for an 8-digit code, returned once as `claim_code`, that you send the payer by " +
      "another channel than the link (docs: Refunds, claim codes).",
  });

/** Regenerating a claim link: the old link (and code) die at once; the code requirement may be turned on or off. */
export const regenerateClaimBody = z.strictObject({ require_claim_code: requireClaimCode });
export type RegenerateClaimInput = z.output<typeof regenerateClaimBody>;

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
    require_claim_code: requireClaimCode,
  })
  .superRefine((body, ctx) => {
    if (body.require_claim_code && body.destination !== "claim")
      ctx.addIssue({
        code: "custom",
        message: `require_claim_code is only given with destination "claim" (not "${body.destination}")`,
        path: ["require_claim_code"],
      });
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
  chain: chainField.optional(),
  ...listFilterQuery,
});
export type ListRefundsQuery = z.output<typeof listRefundsQuery>;
