import { FALLBACK_UNIT_LIMIT } from "./solana-priority-fee";

/**
 * The rent a transaction moved, from its balances: lamports of the token accounts it created (none before, some
 * after) and of those it closed (some before, none after). A failed transaction changed neither.
 */
export function tokenAccountRent(meta: {
  preBalances: readonly bigint[];
  postBalances: readonly bigint[];
  preTokenBalances?: readonly { accountIndex: number }[] | null;
  postTokenBalances?: readonly { accountIndex: number }[] | null;
}): { paid: bigint; returned: bigint } {
  let paid = 0n;
  let returned = 0n;
  for (const { accountIndex: i } of meta.postTokenBalances ?? [])
    if (BigInt(meta.preBalances[i] ?? 0) === 0n) paid += BigInt(meta.postBalances[i] ?? 0);
  for (const { accountIndex: i } of meta.preTokenBalances ?? [])
    if (BigInt(meta.postBalances[i] ?? 0) === 0n) returned += BigInt(meta.preBalances[i] ?? 0);
  return { paid, returned };
}

/**
 * Lamports one sweep may cost the sweeper: two signatures (5,000 each), a recipient's new token account's rent,
 * and the priority fee at the price cap for the unit limit of a transaction the simulation could not measure.
 */
export const solanaTransactionLamports = (maxUnitPrice: bigint): bigint =>
  2n * 5_000n + 2_039_280n + (maxUnitPrice * BigInt(FALLBACK_UNIT_LIMIT) + 999_999n) / 1_000_000n;
