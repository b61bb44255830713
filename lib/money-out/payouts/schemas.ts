import { z } from "zod";
import { metadataField } from "@/lib/kernel/schemas/metadata";
import { amountField, boundedString } from "@/lib/kernel/schemas/common";
import { addressProblem } from "@/lib/chains/validate-address";
import { paginationQuery } from "@/lib/kernel/schemas/pagination";
import { listFilterQuery } from "@/lib/kernel/schemas/list-filters";
import { chainField } from "@/lib/chains/chain-field";

export const PAYOUT_STATUSES = ["pending", "review_required", "processing", "confirmed", "failed", "blocked"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const createPayoutBody = z
  .strictObject({
    chain: chainField,
    to_address: z
      .string({ error: "to_address must be a string" })
      .min(1, { error: "to_address must not be empty" })
      .max(100, { error: "to_address is too long" }),
    amount: amountField("exact"),
    description: boundedString("description", 500).optional(),
    metadata: metadataField.optional(),
  })
  .superRefine((body, ctx) => {
    const problem = addressProblem(body.chain, body.to_address);
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["to_address"] });
  });
export type CreatePayoutInput = z.output<typeof createPayoutBody>;

export const listPayoutsQuery = z.strictObject({
  ...paginationQuery,
  status: z.enum(PAYOUT_STATUSES, { error: `status must be one of ${PAYOUT_STATUSES.join(", ")}` }).optional(),
  chain: chainField.optional(),
  ...listFilterQuery,
});
export type ListPayoutsQuery = z.output<typeof listPayoutsQuery>;
