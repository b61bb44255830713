import { z } from "zod";
import { boundedString } from "@/lib/kernel/schemas/common";
import { metadataField } from "@/lib/kernel/schemas/metadata";
import { paginationQuery } from "@/lib/kernel/schemas/pagination";

const nameField = boundedString("name", 256).min(1, { error: "name must not be empty" });
const emailField = z
  .email({ error: "email must be an email address" })
  .max(254, { error: "email must be at most 254 characters" });
// The merchant's own id for the customer: printable, no surrounding spaces (it is matched exactly).
const referenceField = boundedString("reference", 256).regex(/^\S(.*\S)?$/, {
  error: "reference must be 1 to 256 characters, not starting or ending with a space",
});

export const createCustomerBody = z.strictObject({
  name: nameField.optional(),
  email: emailField.optional(),
  reference: referenceField.optional(),
  metadata: metadataField.optional(),
});
export type CreateCustomerInput = z.output<typeof createCustomerBody>;

/** Fields left out keep their value; `null` clears `name`, `email` or `reference`; `metadata` is replaced whole. */
export const updateCustomerBody = z.strictObject({
  name: nameField.nullable().optional(),
  email: emailField.nullable().optional(),
  reference: referenceField.nullable().optional(),
  metadata: metadataField.optional(),
});
export type UpdateCustomerInput = z.output<typeof updateCustomerBody>;

export const listCustomersQuery = z.strictObject({
  ...paginationQuery,
  reference: z.string().min(1, { error: "reference must not be empty" }).optional(),
  email: z.string().min(1, { error: "email must not be empty" }).optional(),
});
export type ListCustomersQuery = z.output<typeof listCustomersQuery>;
