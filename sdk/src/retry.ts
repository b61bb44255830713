// When and how long to wait before sending a request again.
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
// The API's rate windows are 60 s long: a longer Retry-After is not worth blocking the caller for.
const MAX_RETRY_AFTER_MS = 60_000;

/** 429 (rate limited) and 5xx (a 500 with Retry-After is the service's "busy"); never another 4xx. */
export const isRetryableStatus = (status: number): boolean => status === 429 || status >= 500;

/** Exponential backoff with full jitter: uniform in [0, min(cap, base·2^attempt)). */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt));
}

/**
 * The wait before retry number `attempt + 1`: at least what the server's Retry-After asks, else the backoff;
 * `null` when the server asks for longer than is worth waiting (the error is thrown instead).
 */
export function retryDelayMs(attempt: number, retryAfter: string | null): number | null {
  const backoff = backoffMs(attempt);
  const asked = parseRetryAfterMs(retryAfter);
  if (asked === null) return backoff;
  return asked > MAX_RETRY_AFTER_MS ? null : Math.max(asked, backoff);
}

/** `Retry-After` as seconds (what this API sends) or an HTTP date. */
export function parseRetryAfterMs(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
