import { z } from "zod";
import { amountField, boundedString } from "@/lib/kernel/schemas/common";

export const DESCRIPTION_MAX = 500;

export const createPaymentLinkBody = z.strictObject({
  amount: amountField("up_to_6"),
  description: boundedString("description", DESCRIPTION_MAX).optional(),
});
export type CreatePaymentLinkInput = z.output<typeof createPaymentLinkBody>;

export const listPaymentLinksQuery = z.strictObject({});
