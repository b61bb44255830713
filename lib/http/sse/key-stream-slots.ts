import { ApiError } from "../api/errors";

const open = new Map<string, number>();

/**
 * A place for one more open stream of `holder` (an API key) in this process, or a 429: a leaked key cannot
 * hold an unbounded number of connections. The returned function gives the place back (once).
 */
export function takeStreamSlot(holder: string, max: number): () => void {
  const count = open.get(holder) ?? 0;
  if (count >= max) {
    throw new ApiError(
      "rate_limit_exceeded",
      `This API key already has ${max} open event streams: close one (or wait for it to end) first.`,
      { headers: { "Retry-After": "5" } },
    );
  }
  open.set(holder, count + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (open.get(holder) ?? 1) - 1;
    if (left > 0) open.set(holder, left);
    else open.delete(holder);
  };
}
