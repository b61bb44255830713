import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import { parseAmount, USDT_DECIMALS } from "@/lib/kernel/amount";

/**
 * What is owed ("12.500000", exactly 6 decimals) in the token's own base units: 12500000n with 6
 * decimals, 12500000000000000000n with 18 (BNB Smart Chain). Integer arithmetic only. Throws a
 * RangeError for a malformed or zero amount, or when the token's decimals cannot hold it exactly.
 */
export function toBaseUnits(amountDue: string, decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36)
    throw new RangeError(`token decimals must be an integer from 0 to 36; got ${decimals}`);
  const parsed = parseAmount(amountDue, "exact");
  if (!parsed.ok) throw new RangeError(parsed.message);
  // fromUsdtUnits rounds down below 6 decimals; a payment must never be short, so refuse instead.
  if (decimals < USDT_DECIMALS && parsed.units % 10n ** BigInt(USDT_DECIMALS - decimals) !== 0n) {
    throw new RangeError(`${amountDue} cannot be expressed with the token's ${decimals} decimals`);
  }
  return fromUsdtUnits(parsed.units, decimals);
}

/** "12.500000" → "12.5", "12.000000" → "12": what a payer reads on the button. */
export { trimDecimal as displayAmount } from "@/lib/chains/payment-uri";

/** 0x1234…abcd: enough to recognise an account without taking a whole line. */
export function shortAddress(address: string): string {
  return address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}
