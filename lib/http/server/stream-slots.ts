import type { ServerResponse } from "node:http";

/**
 * Open live-status streams (`/api/public/checkout/<id>/events`) each hold a connection, a socket and a
 * subscription for up to ten minutes (the database is read only when the payment changes), so a client may
 * hold only a few at once and one web process only so many in all (docs/CHECKOUT.md#limits-and-safety). A
 * checkout page opens one; five cover a payer with a few tabs.
 */
export const STREAMS_PER_CLIENT = 5;
export const STREAMS_PER_PROCESS = 2_000;
/** What a refused stream is told to wait; the checkout page retries later by itself. */
const RETRY_AFTER_SECONDS = 20;

const STREAM_PATH = /^\/api\/public\/checkout\/[^/]+\/events$/;

export function isStatusStreamPath(pathname: string): boolean {
  return STREAM_PATH.test(pathname);
}

const open = new Map<string, number>();
let total = 0;

/**
 * Takes a slot for this client (by its limit key) until the response closes, whether the stream ended,
 * the client went away or the connection broke. Returns false, having written a 429, when none is free.
 */
export function admitStatusStream(clientKey: string, res: ServerResponse): boolean {
  const mine = open.get(clientKey) ?? 0;
  if (mine >= STREAMS_PER_CLIENT || total >= STREAMS_PER_PROCESS) {
    const message =
      mine >= STREAMS_PER_CLIENT
        ? `At most ${STREAMS_PER_CLIENT} live status streams may be open from one network at a time.`
        : "Too many live status streams are open on this server.";
    res.statusCode = 429;
    res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.end(JSON.stringify({ error: { type: "rate_limit_exceeded", message } }));
    return false;
  }
  open.set(clientKey, mine + 1);
  total += 1;
  res.once("close", () => {
    total -= 1;
    const left = (open.get(clientKey) ?? 1) - 1;
    if (left > 0) open.set(clientKey, left);
    else open.delete(clientKey);
  });
  return true;
}

/** Streams open now (for tests and diagnostics). */
export function openStatusStreams(clientKey?: string): number {
  return clientKey === undefined ? total : (open.get(clientKey) ?? 0);
}
