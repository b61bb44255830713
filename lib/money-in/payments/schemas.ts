import { z } from "zod";
import { metadataField } from "@/lib/kernel/schemas/metadata";
import { paginationQuery } from "@/lib/kernel/schemas/pagination";
import { listFilterQuery } from "@/lib/kernel/schemas/list-filters";
import { PAYMENT_STATUSES } from "@/db/schema/payments";
import { amountField, boundedString } from "@/lib/kernel/schemas/common";
import { chainField } from "@/lib/chains/chain-field";

export const DEFAULT_EXPIRES_IN = 1800;

export const createPaymentBody = z.strictObject({
  amount: amountField("exact"),
  chain: chainField.optional(),
  description: boundedString("description", 500).optional(),
  metadata: metadataField.optional(),
  customer: z
    .string({ error: "customer must be a customer's id (cus_…)" })
    .min(1, { error: "customer must be a customer's id (cus_…)" })
    .max(64, { error: "customer must be a customer's id (cus_…)" })
    .optional(),
  expires_in: z
    .number({ error: "expires_in must be a number of seconds" })
    .int({ error: "expires_in must be a whole number of seconds" })
    .min(60, { error: "expires_in must be at least 60 seconds" })
    .max(86400, { error: "expires_in must be at most 86400 seconds (24 hours)" })
    .optional(),
});
export type CreatePaymentInput = z.output<typeof createPaymentBody>;

export const listPaymentsQuery = z.strictObject({
  ...paginationQuery,
  status: z.enum(PAYMENT_STATUSES, { error: `status must be one of ${PAYMENT_STATUSES.join(", ")}` }).optional(),
  chain: chainField.optional(),
  customer: z.string().min(1, { error: "customer must be a customer's id (cus_…)" }).optional(),
  ...listFilterQuery,
});
