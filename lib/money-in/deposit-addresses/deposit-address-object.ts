import { z } from "zod";
import { CHAINS } from "@/lib/kernel/chain-ids";
import { amountString, metadataObject, timestamp } from "@/lib/kernel/schemas/response-fields";
import { DEPOSIT_STATUSES } from "./schemas";

/** The deposit address object as serializeDepositAddress renders it (docs/API.md#the-deposit-address-object). */
export const depositAddressObject = z
  .object({
    id: z.string().meta({ examples: ["da_7hQ2mZp4Lk9w"] }),
    object: z.literal("deposit_address"),
    customer: z.string().nullable().meta({ description: "The customer (`cus_…`) it belongs to, if one was named." }),
    chain: z.enum(CHAINS),
    address: z.string().meta({ examples: ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"] }),
    status: z.enum(["active", "disabled"]).meta({
      description: "A disabled address is still watched and its deposits credited, each flagged `address_disabled`.",
    }),
    amount_received: amountString.meta({
      description: "Every deposit still on the chain (pending, confirmed or below the minimum), added up.",
    }),
    amount_credited: amountString.meta({ description: "The confirmed deposits, added up: what reached the balance." }),
    metadata: metadataObject,
    created_at: timestamp,
  })
  .meta({ id: "DepositAddress", description: "A permanent address that credits every USDT transfer to it." });
export type DepositAddressObject = z.input<typeof depositAddressObject>;

/** The deposit object as serializeDeposit renders it (docs/API.md#the-deposit-object). */
export const depositObject = z
  .object({
    id: z.string().meta({ examples: ["dep_2xVb8nQr5Tk1"] }),
    object: z.literal("deposit"),
    status: z.enum(DEPOSIT_STATUSES),
    amount: amountString,
    currency: z.literal("USDT"),
    chain: z.enum(CHAINS),
    deposit_address: z.string().meta({ description: "The deposit address (`da_…`) it was sent to." }),
    address: z.string(),
    customer: z.string().nullable(),
    from: z.string().nullable().meta({ description: "The sender, when the chain says." }),
    tx_hash: z.string(),
    log_index: z.int().min(0).meta({
      description: "EVM and Tron: the transfer's log index in its block; Solana: its position in the slot.",
    }),
    block_number: z.int().min(0),
    address_disabled: z.boolean().meta({ description: "The address was disabled when the transfer arrived." }),
    created_at: timestamp,
    confirmed_at: timestamp.nullable(),
  })
  .meta({ id: "Deposit", description: "A transfer of USDT to a deposit address." });
export type DepositObject = z.input<typeof depositObject>;
