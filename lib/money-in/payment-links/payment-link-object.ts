import { z } from "zod";
import { amountString, timestamp } from "@/lib/kernel/schemas/response-fields";

/** The payment link object as serializePaymentLink renders it (docs/API.md#the-payment-link-object). */
export const paymentLinkObject = z
  .object({
    id: z.string().meta({ examples: ["plink_7hQp2Lx9"] }),
    object: z.literal("payment_link"),
    url: z.url().meta({ description: "The page a payer opens: each visit creates a payment." }),
    amount: amountString,
    currency: z.literal("USDT"),
    description: z.string().optional(),
    active: z.boolean().meta({ description: "False once deactivated or expired." }),
    created_at: timestamp,
    expires_at: timestamp,
  })
  .meta({ id: "PaymentLink", description: "A reusable link that opens a checkout for a fixed amount." });
export type PaymentLinkObject = z.input<typeof paymentLinkObject>;
