/** The smaller of two bigints (Math.min takes numbers only). */
export const minOf = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** The larger of two bigints. */
export const maxOf = (a: bigint, b: bigint): bigint => (a > b ? a : b);
