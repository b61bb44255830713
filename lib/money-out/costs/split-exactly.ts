/**
 * Splits `total` in proportion to `weights`, in whole units that sum to `total` exactly: each part is rounded
 * down and the units left over go one each to the largest remainders (ties to the earlier part). No weights, or
 * none positive: one part, the whole, when there is one weight; otherwise equal parts.
 */
export function splitExactly(total: bigint, weights: bigint[]): bigint[] {
  if (!weights.length) return [];
  const sum = weights.reduce((a, w) => a + (w > 0n ? w : 0n), 0n);
  const effective = sum > 0n ? weights.map((w) => (w > 0n ? w : 0n)) : weights.map(() => 1n);
  const denominator = sum > 0n ? sum : BigInt(weights.length);
  const parts = effective.map((w) => (total * w) / denominator);
  let left = total - parts.reduce((a, p) => a + p, 0n);
  const order = effective
    .map((w, i) => ({ i, remainder: (total * w) % denominator }))
    .sort((a, b) => (b.remainder > a.remainder ? 1 : b.remainder < a.remainder ? -1 : a.i - b.i));
  for (const { i } of order) {
    if (left <= 0n) break;
    parts[i]! += 1n;
    left -= 1n;
  }
  return parts;
}
