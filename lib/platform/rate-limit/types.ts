export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until one more request would be admitted (0 when allowed). */
  retryAfterMs: number;
}

/**
 * A sliding-window log: a request is admitted when fewer than `limit` requests of the same bucket were
 * admitted in the `windowMs` before it. Rejected requests are not recorded, so a client that waits as
 * told gets through. `nowMs` is injectable so tests can move time.
 */
export interface RateLimiter {
  hit(bucket: string, limit: number, windowMs: number, nowMs?: number): Promise<RateLimitResult>;
  close?(): Promise<void>;
}
