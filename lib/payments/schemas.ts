import { z } from "zod";
import { metadataField } from "@/lib/api/metadata";
import { amountField, boundedString } from "@/lib/api/schemas";
import { CHAINS } from "@/lib/chains/chains";

export const DEFAULT_EXPIRES_IN = 1800;

export const chainField = z.enum(CHAINS, { error: `chain must be one of ${CHAINS.join(", ")}` });

export const createPaymentBody = z.strictObject({
  amount: amountField("exact"),
  chain: chainField.optional(),
  description: boundedString("description", 500).optional(),
  metadata: metadataField.optional(),
  expires_in: z
    .number({ error: "expires_in must be a number of seconds" })
    .int({ error: "expires_in must be a whole number of seconds" })
    .min(60, { error: "expires_in must be at least 60 seconds" })
    .max(86400, { error: "expires_in must be at most 86400 seconds (24 hours)" })
    .optional(),
});
export type CreatePaymentInput = z.output<typeof createPaymentBody>;

/** `limit` and `starting_after` as the spec's lists take them (query strings, so parsed from text). */
export const paginationQuery = {
  limit: z
    .string()
    .regex(/^\d+$/, { error: "limit must be a whole number from 1 to 100" })
    .transform(Number)
    .pipe(z.number().min(1, { error: "limit must be a whole number from 1 to 100" }).max(100, { error: "limit must be a whole number from 1 to 100" }))
    .optional(),
  starting_after: z.string().min(1, { error: "starting_after must be an id from the previous page" }).optional(),
};

export const listPaymentsQuery = z.strictObject(paginationQuery);
