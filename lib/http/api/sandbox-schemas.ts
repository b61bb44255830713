import { z } from "zod";
import { amountField } from "@/lib/kernel/schemas/common";
import { chainField } from "@/lib/chains/chain-field";

const count = (name: string, max: number) =>
  z
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be a whole number` })
    .min(1, { error: `${name} must be at least 1` })
    .max(max, { error: `${name} must be at most ${max}` });

export const faucetBody = z.strictObject({
  chain: chainField,
  address: z.string({ error: "address must be a string" }).max(100, { error: "address is too long" }),
  amount: amountField("exact"),
});

export const simulateBody = z.strictObject({ amount: amountField("exact").optional() });
export const simulateDepositBody = z.strictObject({ amount: amountField("exact") });
export const mineBody = z.strictObject({ blocks: count("blocks", 1000).optional() });
export const reorgBody = z.strictObject({ depth: count("depth", 64) });

/** The freeze and unfreeze body; the address is checked against the path's chain by the domain code. */
export const freezeBody = z.strictObject({
  address: z.string({ error: "address must be a string" }).max(100, { error: "address is too long" }),
});

/** A congestion a funded sandbox wallet (1 native coin) can still outbid: a 100,000-gas call costs 1 coin. */
export const MAX_BASE_FEE_GWEI = 10_000n;
const GWEI = 1_000_000_000n;

/** Gwei as a decimal string (up to 9 decimals, i.e. whole wei) → wei; never a float on the way. */
const gweiField = z
  .any()
  .transform((value, ctx): bigint => {
    const match = typeof value === "string" ? /^(\d{1,6})(?:\.(\d{1,9}))?$/.exec(value) : null;
    const wei = match ? BigInt(match[1]!) * GWEI + BigInt((match[2] ?? "").padEnd(9, "0")) : null;
    if (wei !== null && wei <= MAX_BASE_FEE_GWEI * GWEI) return wei;
    ctx.issues.push({
      code: "custom",
      input: value,
      message:
        wei === null
          ? 'base_fee_gwei must be a decimal string of gwei with at most 9 decimals, e.g. "50" or "1.5"'
          : `base_fee_gwei must be at most ${MAX_BASE_FEE_GWEI}`,
    });
    return z.NEVER;
  })
  .meta({
    type: "string",
    pattern: "^\\d{1,6}(\\.\\d{1,9})?$",
    description: `Gwei as a decimal string (at most 9 decimals), up to ${MAX_BASE_FEE_GWEI}.`,
  });

/**
 * Congestion on Solana: the others' traffic pays up to 100 lamports per compute unit (4M lamports for 40,000 units).
 */
export const MAX_COMPUTE_UNIT_PRICE = 100_000_000n;

/** Micro-lamports per compute unit, a whole number as a decimal string; "0" ends a congestion. */
const computeUnitPriceField = z
  .any()
  .transform((value, ctx): bigint => {
    const ok = typeof value === "string" && /^\d{1,9}$/.test(value) && BigInt(value) <= MAX_COMPUTE_UNIT_PRICE;
    if (ok) return BigInt(value);
    ctx.issues.push({
      code: "custom",
      input: value,
      message:
        `compute_unit_price must be a whole number of micro-lamports as a decimal string, ` +
        `from "0" to "${MAX_COMPUTE_UNIT_PRICE}"`,
    });
    return z.NEVER;
  })
  .meta({
    type: "string",
    pattern: "^\\d{1,9}$",
    description:
      `Micro-lamports per compute unit, a decimal string, ` +
      `up to ${MAX_COMPUTE_UNIT_PRICE}; "0" ends the congestion.`,
  });

/** EVM chains take base_fee_gwei, solana compute_unit_price (checked against the path's chain by the domain code). */
export const congestBody = z.strictObject({
  base_fee_gwei: gweiField.optional(),
  compute_unit_price: computeUnitPriceField.optional(),
});
export const dropBody = z.strictObject({
  tx_hash: z
    .string({ error: "tx_hash must be a string" })
    .regex(/^0x[0-9a-fA-F]{64}$/, { error: "tx_hash must be 0x followed by 64 hex digits" }),
});
