/**
 * Resolves after `ms`, or as soon as `signal` aborts (at once if it already has), so a loop waiting
 * between rounds stops promptly on shutdown. The timer and the listener are both removed either way.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
