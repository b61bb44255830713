import { ApiError } from "../api/errors";

/**
 * How many event streams may be open at once in one web process: per key (a leaked key holds few connections),
 * per merchant and mode (many keys of one tenant cannot starve the others: each event costs one read per open
 * stream of its owner), and in all.
 */
export const EVENT_STREAM_LIMITS = { perKey: 10, perOwner: 20, perProcess: 500 };

const open = new Map<string, number>();
let total = 0;

const refuse = (message: string) => new ApiError("rate_limit_exceeded", message, { headers: { "Retry-After": "5" } });

/**
 * A place for one more open stream of this key, or a 429 naming the limit reached. The returned function gives
 * the place back (once).
 */
export function takeStreamSlot(key: { keyId: string; merchantId: string; mode: string }): () => void {
  const holders = [`key:${key.keyId}`, `owner:${key.merchantId}:${key.mode}`];
  const [mine, owners] = holders.map((h) => open.get(h) ?? 0) as [number, number];
  if (mine >= EVENT_STREAM_LIMITS.perKey)
    throw refuse(
      `This API key already has ${EVENT_STREAM_LIMITS.perKey} open event streams: ` +
        `close one (or wait for it to end) first.`,
    );
  if (owners >= EVENT_STREAM_LIMITS.perOwner)
    throw refuse(
      `Your account already has ${EVENT_STREAM_LIMITS.perOwner} open ` +
        `event streams in this mode, across its keys: close one first.`,
    );
  if (total >= EVENT_STREAM_LIMITS.perProcess)
    throw refuse("Too many event streams are open on this server: retry shortly.");
  for (const h of holders) open.set(h, (open.get(h) ?? 0) + 1);
  total += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    total -= 1;
    for (const h of holders) {
      const left = (open.get(h) ?? 1) - 1;
      if (left > 0) open.set(h, left);
      else open.delete(h);
    }
  };
}
