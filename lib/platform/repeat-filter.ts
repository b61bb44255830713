/**
 * Says whether a recurring message should be logged now: the first time, when its text changes, and then
 * once per `everyMs` with how many times it recurred meanwhile. For loops that retry every pass (a transfer
 * waiting for the fee coin logs once a minute, not every second).
 */
export function repeatFilter(everyMs = 60_000, maxKeys = 10_000) {
  const seen = new Map<string, { text: string; at: number; suppressed: number }>();
  return {
    /** null: stay quiet; otherwise the times it was suppressed since it was last logged. */
    pass(key: string, text: string, now = Date.now()): number | null {
      const last = seen.get(key);
      if (last && last.text === text && now - last.at < everyMs) {
        last.suppressed++;
        return null;
      }
      if (!last && seen.size >= maxKeys) seen.delete(seen.keys().next().value!);
      seen.set(key, { text, at: now, suppressed: 0 });
      return last && last.text === text ? last.suppressed : 0;
    },
    /** The key's trouble is over: its next message is logged at once. */
    clear(key: string): void {
      seen.delete(key);
    },
  };
}
