import { z } from "zod";
import { EXACT, formatAmount, MAX_AMOUNT_UNITS, parseAmount, UP_TO_SIX } from "@/lib/kernel/amount";

/** An API amount string → bigint base units; the message states the expected form. */
export function amountField(mode: "exact" | "up_to_6") {
  return z
    .any()
    .transform((value, ctx): bigint => {
      const parsed = parseAmount(value, mode);
      if (parsed.ok) return parsed.units;
      ctx.issues.push({ code: "custom", message: parsed.message, input: value });
      return z.NEVER;
    })
    .meta({
      // What the OpenAPI document shows: the parser above is the rule.
      type: "string",
      pattern: (mode === "exact" ? EXACT : UP_TO_SIX).source,
      description:
        `USDT, a decimal string ${mode === "exact" ? "with exactly 6 decimals" : "with up to 6 decimals"}, ` +
        `above 0 and at most ${formatAmount(MAX_AMOUNT_UNITS)}.`,
      examples: [mode === "exact" ? "25.000000" : "25.5"],
    });
}

export function boundedString(name: string, max: number) {
  return z
    .string({ error: `${name} must be a string` })
    .max(max, { error: `${name} must be at most ${max} characters` });
}
