/** Percentile of a sample (nearest rank), in the sample's unit. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const fmt = (ms: number) => `${Math.round(ms)} ms`;
