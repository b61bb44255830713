/**
 * The one rule for comparing addresses across the service: 0x-hex (EVM) addresses compare without case,
 * since EIP-55's mixed case is only a checksum; base58 ones (Tron, Solana) are case-sensitive, their case is
 * part of the value. Decided by the address's shape, so a deny-list entry with no chain still compares.
 */
export function addressKey(address: string): string {
  const trimmed = address.trim();
  return /^0x[0-9a-fA-F]{40}$/.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}

/** Do two addresses name the same account (by addressKey)? */
export function sameAddress(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && addressKey(a) === addressKey(b);
}

/** addressKey in SQL, for a column (or parameter) holding an address. */
export const addressKeySql = (expression: string): string =>
  `(case when ${expression} ~ '^0x[0-9a-fA-F]{40}$' then lower(${expression}) else ${expression} end)`;
