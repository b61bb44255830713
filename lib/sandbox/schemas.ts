import { z } from "zod";
import { amountField } from "@/lib/api/schemas";
import { chainField } from "@/lib/payments/schemas";

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
export const mineBody = z.strictObject({ blocks: count("blocks", 1000).optional() });
export const reorgBody = z.strictObject({ depth: count("depth", 64) });
