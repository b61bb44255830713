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

/** Lamports one sweep may cost the sweeper: two signatures (5,000 each) and a recipient's new token account's rent. */
export const SOLANA_TRANSACTION_LAMPORTS = 2n * 5_000n + 2_039_280n;
