/**
 * fee_limit of a TRC-20 transfer when the intent sets no `feeLimitSun`: 50 TRX covers a USDT transfer to an
 * empty balance (~130,000 energy) up to ~380 sun per energy. It caps what a transfer may burn; it is not a price.
 */
export const DEFAULT_FEE_LIMIT_SUN = 50_000_000n;
/** java-tron's getMaxFeeLimit (15,000 TRX): a higher fee_limit is refused. */
export const MAX_FEE_LIMIT_SUN = 15_000_000_000n;
