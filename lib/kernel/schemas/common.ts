import { z } from "zod";
import { parseAmount } from "@/lib/kernel/amount";

/** An API amount string → bigint base units; the message states the expected form. */
export function amountField(mode: "exact" | "up_to_6") {
  return z.any().transform((value, ctx): bigint => {
    const parsed = parseAmount(value, mode);
    if (parsed.ok) return parsed.units;
    ctx.issues.push({ code: "custom", message: parsed.message, input: value });
    return z.NEVER;
  });
}

export function boundedString(name: string, max: number) {
  return z
    .string({ error: `${name} must be a string` })
    .max(max, { error: `${name} must be at most ${max} characters` });
}
