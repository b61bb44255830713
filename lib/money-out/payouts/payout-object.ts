import { z } from "zod";
import { CHAINS } from "@/lib/kernel/chain-ids";
import { amountString, metadataObject, timestamp } from "@/lib/kernel/schemas/response-fields";
import { PAYOUT_FAILURE_CODES } from "./payout-lifecycle";
import { PAYOUT_STATUSES } from "./schemas";

const FAILURE_CODES = Object.keys(PAYOUT_FAILURE_CODES) as [keyof typeof PAYOUT_FAILURE_CODES];

/** The payout object as serializePayout renders it (docs/API.md#the-payout-object). */
export const payoutObject = z
  .object({
    id: z.string().meta({ examples: ["po_5Vw8rT1m"] }),
    object: z.literal("payout"),
    status: z.enum(PAYOUT_STATUSES),
    chain: z.enum(CHAINS),
    to_address: z.string(),
    amount: amountString,
    currency: z.literal("USDT"),
    tx_hash: z.string().nullable(),
    confirmations: z.int().min(0).optional(),
    confirmed_at: timestamp.optional(),
    failure_code: z.enum(FAILURE_CODES).optional().meta({ description: "Only on a failed or blocked payout." }),
    failure_message: z.string().nullable().optional(),
    created_at: timestamp,
    description: z.string().optional(),
    metadata: metadataObject,
  })
  .meta({ id: "Payout", description: "USDT sent from the merchant's available balance to an address." });
export type PayoutObject = z.input<typeof payoutObject>;
