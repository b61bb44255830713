import { z } from "zod";
import { metadataObject, timestamp } from "@/lib/kernel/schemas/response-fields";

/** The customer object as serializeCustomer renders it (docs/API.md#the-customer-object). */
export const customerObject = z
  .object({
    id: z.string().meta({ examples: ["cus_4fRk8sLq2"] }),
    object: z.literal("customer"),
    name: z.string().nullable(),
    email: z.string().nullable(),
    reference: z.string().nullable().meta({ description: "The merchant's own id: unique per merchant and mode." }),
    metadata: metadataObject,
    created_at: timestamp,
  })
  .meta({ id: "Customer", description: "Someone a merchant receives money from: deposit addresses belong to one." });
export type CustomerObject = z.input<typeof customerObject>;

export const deletedCustomerObject = z
  .object({ id: z.string(), object: z.literal("customer"), deleted: z.literal(true) })
  .meta({ id: "DeletedCustomer" });
