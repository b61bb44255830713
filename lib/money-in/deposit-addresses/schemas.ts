import { z } from "zod";
import { chainField } from "@/lib/chains/chain-field";
import { metadataField } from "@/lib/kernel/schemas/metadata";
import { paginationQuery } from "@/lib/kernel/schemas/pagination";

const customerField = z.string().min(1, { error: "customer must be a customer id (cus_…)" });

export const createDepositAddressBody = z.strictObject({
  chain: chainField,
  customer: customerField.optional(),
  metadata: metadataField.optional(),
});
export type CreateDepositAddressInput = z.output<typeof createDepositAddressBody>;

/** `status` disables or re-enables the address (a disabled one is still watched, credited); `metadata` is replaced. */
export const updateDepositAddressBody = z.strictObject({
  status: z.enum(["active", "disabled"], { error: "status must be active or disabled" }).optional(),
  metadata: metadataField.optional(),
});
export type UpdateDepositAddressInput = z.output<typeof updateDepositAddressBody>;

export const listDepositAddressesQuery = z.strictObject({
  ...paginationQuery,
  customer: customerField.optional(),
  chain: chainField.optional(),
  status: z.enum(["active", "disabled"], { error: "status must be active or disabled" }).optional(),
  address: z.string().min(1, { error: "address must not be empty" }).optional(),
});
export type ListDepositAddressesQuery = z.output<typeof listDepositAddressesQuery>;

export const DEPOSIT_STATUSES = ["pending", "confirmed", "reversed", "ignored_below_minimum"] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

export const listDepositsQuery = z.strictObject({
  ...paginationQuery,
  deposit_address: z.string().min(1, { error: "deposit_address must be a deposit address id (da_…)" }).optional(),
  customer: customerField.optional(),
  chain: chainField.optional(),
  status: z.enum(DEPOSIT_STATUSES, { error: `status must be one of ${DEPOSIT_STATUSES.join(", ")}` }).optional(),
  tx_hash: z.string().min(1, { error: "tx_hash must not be empty" }).optional(),
});
export type ListDepositsQuery = z.output<typeof listDepositsQuery>;

export const rescanDepositsBody = z.strictObject({
  chain: chainField,
  tx_hash: z
    .string({ error: "tx_hash must be a transaction id" })
    .min(1, { error: "tx_hash must not be empty" })
    .max(200, { error: "tx_hash is too long" }),
});
export type RescanDepositsInput = z.output<typeof rescanDepositsBody>;
