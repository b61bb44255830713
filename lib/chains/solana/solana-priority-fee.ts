import {
  type Address,
  AccountRole,
  decompileTransactionMessage,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  getTransactionMessageComputeUnitLimit,
  getTransactionMessageComputeUnitPrice,
  type Instruction,
} from "@solana/kit";

/**
 * What a Solana transaction offers for its compute (docs/CUSTODY.md, "Solana priority fees"): a unit limit
 * measured by simulation, plus a margin, and a unit price read from the fees recent blocks were paid,
 * never above the operator's cap. Its priority fee is price × limit (micro-lamports per unit).
 */

/** The recent slots a price is read from: about 8 s of blocks, so a congestion that just began counts at once. */
export const FEE_WINDOW_SLOTS = 20;
/** The percentile of those slots' prices offered: above three blocks in four. */
export const FEE_PERCENTILE = 75;
/** The simulated units, plus a fifth: the accounts' state may change before the transaction lands. */
const LIMIT_MARGIN_PERCENT = 120;
/** When the simulation reports nothing (it failed before running): the runtime's default for one instruction. */
export const FALLBACK_UNIT_LIMIT = 200_000;
export const MAX_UNIT_LIMIT = 1_400_000;

export interface RecentFee {
  slot: number | bigint;
  prioritizationFee: number | bigint;
}

/** The unit limit for a measured consumption: the margin added, within the runtime's maximum. */
export function unitLimitFor(unitsConsumed: number | bigint | null | undefined): number {
  const units = Number(unitsConsumed ?? 0);
  if (units <= 0) return FALLBACK_UNIT_LIMIT;
  return Math.min(MAX_UNIT_LIMIT, Math.ceil((units * LIMIT_MARGIN_PERCENT) / 100));
}

/**
 * The unit price: the FEE_PERCENTILE-th of the newest FEE_WINDOW_SLOTS slots' prices (nearest rank), capped.
 * `capped` says the market asked for more than the cap allows (the transaction may wait for it to calm).
 */
export function unitPriceFor(
  recent: readonly RecentFee[],
  cap: bigint,
): { price: bigint; wanted: bigint; capped: boolean } {
  const window = [...recent]
    .sort((a, b) => Number(a.slot) - Number(b.slot))
    .slice(-FEE_WINDOW_SLOTS)
    .map((f) => BigInt(f.prioritizationFee))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const wanted = window.length ? window[Math.ceil((FEE_PERCENTILE / 100) * window.length) - 1]! : 0n;
  return { price: wanted > cap ? cap : wanted, wanted, capped: wanted > cap };
}

/** The accounts a transaction write-locks (its fee payer's and its instructions'): whose recent prices matter. */
export function writableAccounts(feePayer: Address, instructions: Instruction[]): Address[] {
  const out = new Set<Address>([feePayer]);
  for (const ix of instructions)
    for (const account of ix.accounts ?? [])
      if (account.role === AccountRole.WRITABLE || account.role === AccountRole.WRITABLE_SIGNER)
        out.add(account.address);
  return [...out];
}

/** The compute budget a signed transaction (base64 wire bytes) carries: what it offered, for the books. */
export function budgetOfSigned(signedTx: string): { unitLimit: number | undefined; unitPrice: bigint | undefined } {
  const { messageBytes } = getTransactionDecoder().decode(Buffer.from(signedTx, "base64"));
  const message = decompileTransactionMessage(getCompiledTransactionMessageDecoder().decode(messageBytes));
  if (message.version !== 0 && message.version !== "legacy") return { unitLimit: undefined, unitPrice: undefined };
  return {
    unitLimit: getTransactionMessageComputeUnitLimit(message),
    unitPrice: getTransactionMessageComputeUnitPrice(message),
  };
}
