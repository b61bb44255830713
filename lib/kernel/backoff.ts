/**
 * Capped exponential backoff: the wait before retry number `attempt` (1 for the first) is `baseMs`,
 * doubling with each further attempt, never more than `maxMs`.
 */
export function backoffDelay(attempt: number, { baseMs, maxMs }: { baseMs: number; maxMs: number }): number {
  return Math.min(maxMs, baseMs * 2 ** (attempt - 1));
}
