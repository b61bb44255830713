import { z } from "zod";
import { listOf } from "@/lib/kernel/schemas/response-fields";
import { depositAddressObject, depositObject } from "@/lib/money-in/deposit-addresses/deposit-address-object";
import {
  createDepositAddressBody,
  listDepositAddressesQuery,
  listDepositsQuery,
  rescanDepositsBody,
  updateDepositAddressBody,
} from "@/lib/money-in/deposit-addresses/schemas";
import { CHAINS } from "@/lib/kernel/chain-ids";
import { amountString } from "@/lib/kernel/schemas/response-fields";
import { defineOperation } from "../operation";
import { simulateDepositBody } from "../sandbox-schemas";

const tag = "Deposit addresses";

export const DEPOSIT_ADDRESSES = {
  list: defineOperation({
    operationId: "listDepositAddresses",
    method: "get",
    path: "/v1/deposit_addresses",
    tag,
    summary: "List deposit addresses",
    description: "Newest first; `address` matches in any case on EVM chains.",
    scope: "deposits:read",
    query: listDepositAddressesQuery,
    response: listOf(depositAddressObject).meta({ id: "DepositAddressList" }),
  }),
  create: defineOperation({
    operationId: "createDepositAddress",
    method: "post",
    path: "/v1/deposit_addresses",
    tag,
    summary: "Create a deposit address",
    description:
      "One per customer and chain: asking again for a customer's address on a chain returns the same address. " +
      "Without `customer`, every call makes a new one.",
    scope: "deposits:write",
    body: createDepositAddressBody,
    response: depositAddressObject,
    errors: ["chain_disabled"],
  }),
  retrieve: defineOperation({
    operationId: "retrieveDepositAddress",
    method: "get",
    path: "/v1/deposit_addresses/{id}",
    tag,
    summary: "Retrieve a deposit address",
    scope: "deposits:read",
    query: z.strictObject({}),
    response: depositAddressObject,
    errors: ["not_found"],
  }),
  simulate: defineOperation({
    operationId: "simulateDeposit",
    method: "post",
    path: "/v1/sandbox/deposit_addresses/{id}/simulate",
    tag: "Sandbox",
    summary: "Send a sandbox deposit to a deposit address",
    description: "Sends a real transfer of `amount` on the local chain from a fresh sandbox payer wallet.",
    scope: "deposits:write",
    sandboxOnly: true,
    body: simulateDepositBody,
    response: z
      .object({
        object: z.literal("sandbox_deposit_transfer"),
        deposit_address: z.string(),
        chain: z.enum(CHAINS),
        from: z.string(),
        to: z.string(),
        amount: amountString,
        tx_hash: z.string(),
      })
      .meta({ id: "SandboxDepositTransfer" }),
    errors: ["not_found", "chain_disabled"],
  }),
  update: defineOperation({
    operationId: "updateDepositAddress",
    method: "post",
    path: "/v1/deposit_addresses/{id}",
    tag,
    summary: "Update a deposit address",
    description:
      "`status: disabled` flags the address (tell the customer to stop using it); it is still watched and every " +
      "deposit to it credited, flagged `address_disabled`.",
    scope: "deposits:write",
    body: updateDepositAddressBody,
    response: depositAddressObject,
    errors: ["not_found"],
  }),
};

export const DEPOSITS = {
  list: defineOperation({
    operationId: "listDeposits",
    method: "get",
    path: "/v1/deposits",
    tag,
    summary: "List deposits",
    description: "Transfers to deposit addresses, newest first.",
    scope: "deposits:read",
    query: listDepositsQuery,
    response: listOf(depositObject).meta({ id: "DepositList" }),
  }),
  rescan: defineOperation({
    operationId: "rescanDeposits",
    method: "post",
    path: "/v1/deposits/rescan",
    tag,
    summary: "Rescan a transaction for deposits",
    description:
      "Reads one transaction from the chain again and records (and, once deep enough, credits) its transfers to " +
      "your deposit addresses that the watcher has not: exactly once, however often it is asked.",
    scope: "deposits:write",
    body: rescanDepositsBody,
    response: z
      .object({
        object: z.literal("deposit_rescan"),
        chain: z.enum(CHAINS),
        tx_hash: z.string(),
        recorded: z.int().min(0).meta({ description: "Deposits this rescan recorded (0: all were known already)." }),
        left_to_watcher: z.int().min(0).meta({
          description: "Transfers to your addresses in blocks the watcher has not reached: it records them itself.",
        }),
        deposits: z.array(depositObject).meta({ description: "Your deposits in the transaction, new or not." }),
      })
      .meta({ id: "DepositRescan" }),
    errors: ["chain_disabled"],
  }),
  retrieve: defineOperation({
    operationId: "retrieveDeposit",
    method: "get",
    path: "/v1/deposits/{id}",
    tag,
    summary: "Retrieve a deposit",
    scope: "deposits:read",
    query: z.strictObject({}),
    response: depositObject,
    errors: ["not_found"],
  }),
};
