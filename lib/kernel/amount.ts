/**
 * USDT amounts on the API are decimal strings; internally they are integer base units (10^-6 USDT) as
 * bigint. No floating point anywhere on the money path.
 */
export const USDT_DECIMALS = 6;
const UNIT = 10n ** BigInt(USDT_DECIMALS);

/** Larger than any real transfer; keeps sums of amounts far from the int64 range of the columns. */
export const MAX_AMOUNT_UNITS = 100_000_000_000n * UNIT;

export const EXACT = /^(0|[1-9]\d*)\.(\d{6})$/;
export const UP_TO_SIX = /^(0|[1-9]\d*)(?:\.(\d{1,6}))?$/;

export type AmountParse = { ok: true; units: bigint } | { ok: false; message: string };

/**
 * Parses an API amount. `exact`: exactly six decimals (payments, payouts); otherwise up to six
 * (payment links). Rejects non-strings, signs, exponents, zero and values above the maximum.
 */
export function parseAmount(value: unknown, mode: "exact" | "up_to_6"): AmountParse {
  const form =
    mode === "exact"
      ? 'a string with exactly 6 decimals, for example "25.000000"'
      : 'a decimal string with up to 6 decimals, for example "25" or "25.5"';
  if (typeof value !== "string")
    return { ok: false, message: `amount must be ${form}; got a ${value === null ? "null" : typeof value}` };
  const match = (mode === "exact" ? EXACT : UP_TO_SIX).exec(value);
  if (!match) return { ok: false, message: `amount must be ${form}; got "${value.slice(0, 40)}"` };
  const units = BigInt(match[1]!) * UNIT + BigInt((match[2] ?? "").padEnd(USDT_DECIMALS, "0"));
  if (units <= 0n) return { ok: false, message: "amount must be greater than 0" };
  if (units > MAX_AMOUNT_UNITS)
    return { ok: false, message: `amount must be at most ${formatAmount(MAX_AMOUNT_UNITS)}` };
  return { ok: true, units };
}

/** Base units to the API's 6-decimal string: 25000000n → "25.000000". */
export function formatAmount(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / UNIT;
  const frac = (abs % UNIT).toString().padStart(USDT_DECIMALS, "0");
  return `${negative ? "-" : ""}${whole}.${frac}`;
}
