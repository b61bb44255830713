import { z } from "zod";
import { CHAINS } from "@/lib/kernel/chain-ids";
import { amountString } from "@/lib/kernel/schemas/response-fields";

/** What the sandbox helpers (/v1/sandbox/…) answer, as lib/chains/sandbox/* renders it. */

const chain = z.enum(CHAINS);

export const sandboxChainList = z
  .object({
    object: z.literal("list"),
    data: z.array(
      z.strictObject({
        object: z.literal("sandbox_chain"),
        chain,
        emulated: z.boolean(),
        rpc_url: z.string(),
        chain_id: z.int().optional(),
        token_address: z.string(),
        decimals: z.int(),
        block_time_ms: z.int(),
        confirmations_threshold: z.int(),
        confirmations_required: z.int(),
      }),
    ),
  })
  .meta({ id: "SandboxChainList" });

export const sandboxMined = z
  .object({ object: z.literal("sandbox_chain_mined"), chain, blocks: z.int(), head: z.int() })
  .meta({ id: "SandboxChainMined" });

export const sandboxReorganized = z
  .object({ object: z.literal("sandbox_chain_reorganized"), chain, depth: z.int(), head: z.int() })
  .meta({ id: "SandboxChainReorganized" });

export const sandboxCongested = z
  .object({
    object: z.literal("sandbox_chain_congested"),
    chain,
    base_fee_per_gas: z
      .string()
      .nullable()
      .meta({ description: "EVM chains: the base fee set, wei as a decimal string." }),
    compute_unit_price: z
      .string()
      .nullable()
      .meta({ description: "Solana: the price the others' traffic pays, micro-lamports per compute unit." }),
    head: z.int().meta({ description: "The chain's head (Solana: its slot) when the congestion was set." }),
  })
  .meta({ id: "SandboxChainCongested" });

export const sandboxDrop = z
  .object({ object: z.literal("sandbox_drop"), chain, tx_hash: z.string(), dropped: z.boolean() })
  .meta({ id: "SandboxDrop" });

export const sandboxFreeze = z
  .object({
    object: z.literal("sandbox_freeze"),
    chain,
    address: z.string(),
    frozen: z.boolean(),
    tx_hash: z.string().nullable(),
  })
  .meta({ id: "SandboxFreeze" });

export const sandboxFaucetTransfer = z
  .object({
    object: z.literal("sandbox_faucet_transfer"),
    chain,
    address: z.string(),
    amount: amountString,
    tx_hash: z.string(),
  })
  .meta({ id: "SandboxFaucetTransfer" });
