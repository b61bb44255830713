import { ApiError, ConnectionError, errorFromResponse } from "./errors.js";
import { type Page, PageList, pageQuery } from "./page-list.js";
import { backoffMs, isRetryableStatus, retryDelayMs, sleep } from "./retry.js";

export const VERSION = "0.1.0";

export interface TransportConfig {
  apiKey: string;
  baseUrl: string;
  maxRetries: number;
  timeoutMs: number;
  fetch: typeof fetch;
}

/** Per-call options, the last argument of every method. */
export interface RequestOptions {
  /** A POST's `Idempotency-Key`. Default: a fresh UUID per call, reused by that call's own retries. */
  idempotencyKey?: string;
  /** Retries after a network error, a 429 or a 5xx (the client's `maxRetries` by default). */
  maxRetries?: number;
  /** Per attempt. */
  timeoutMs?: number;
  /** Aborts the call, retries included. */
  signal?: AbortSignal;
}

/** What the HTTP answer said besides its body (`object.lastResponse`). */
export interface ResponseMeta {
  status: number;
  /** `Request-Id` (`req_…`). */
  requestId: string | null;
  /** The `Idempotency-Key` sent, for POSTs. */
  idempotencyKey: string | null;
  /** `Idempotent-Replayed: true`: the API returned the stored answer of an earlier request with this key. */
  idempotentReplayed: boolean;
  /** How many times the request was sent (1 + retries). */
  attempts: number;
  headers: Headers;
}

export type WithResponse<T> = T & { readonly lastResponse: ResponseMeta };

/** A query value; an object is sent as bracketed parameters (`created: { gte }` → `created[gte]=…`). */
type QueryValue = string | number | undefined | Record<string, string | number | undefined>;
type ListQuery = Record<string, QueryValue> & { starting_after?: string };

export interface Call {
  method: "GET" | "POST" | "DELETE";
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  options?: RequestOptions | undefined;
}

/** Sends one API call: auth, idempotency key, retries with backoff, typed errors. */
export class Transport {
  constructor(private readonly config: TransportConfig) {}

  async request<T>(call: Call): Promise<WithResponse<T>> {
    const sent = await this.send(call, "application/json", (response) => response.text());
    return withMeta<T>(sent.response, sent.value, sent);
  }

  /**
   * A streamed answer (an export): sent and retried as any call until its headers arrive; the timeout ends there,
   * and the body is the caller's to read at its own pace (the `signal` still aborts it).
   */
  async download(call: Call, accept: string): Promise<Response> {
    return (await this.send(call, accept, async () => undefined)).response;
  }

  /** One call with retries: what `read` makes of the first 2xx answer, within each attempt's timeout. */
  private async send<V>(call: Call, accept: string, read: (response: Response) => Promise<V>) {
    const options = call.options ?? {};
    const maxRetries = options.maxRetries ?? this.config.maxRetries;
    const idempotencyKey = call.method === "POST" ? (options.idempotencyKey ?? crypto.randomUUID()) : null;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.config.apiKey}`,
      accept,
      "user-agent": `usdt-payments-sdk/${VERSION}`,
    };
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    if (call.body !== undefined) headers["content-type"] = "application/json";
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const url = this.url(call);

    for (let attempt = 0; ; attempt++) {
      const mayRetry = attempt < maxRetries;
      const timeout = new AbortController();
      const timer = setTimeout(
        () => timeout.abort(new DOMException("The operation timed out.", "TimeoutError")),
        options.timeoutMs ?? this.config.timeoutMs,
      );
      const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
      let response: Response;
      let outcome: { value: V } | { error: string };
      try {
        response = await this.config.fetch(url, { method: call.method, headers, body, signal });
        outcome = response.ok ? { value: await read(response) } : { error: await response.text() };
      } catch (cause) {
        if (options.signal?.aborted) throw cause; // the caller gave up: no retry
        if (!mayRetry) throw connectionError(call, attempt + 1, cause);
        await sleep(backoffMs(attempt));
        continue;
      } finally {
        clearTimeout(timer);
      }
      if ("value" in outcome) return { response, value: outcome.value, idempotencyKey, attempts: attempt + 1 };
      const error = errorFromResponse(response.status, response.headers, outcome.error);
      const wait =
        mayRetry && isRetryableStatus(response.status) ? retryDelayMs(attempt, error.headers.get("retry-after")) : null;
      if (wait === null) throw error;
      await sleep(wait);
    }
  }

  /** A paginated list: awaitable as its first page, async-iterable over every item. */
  list<P extends Page<{ id: string }>>(path: string, params: ListQuery, options?: RequestOptions): PageList<P> {
    return new PageList<P>((startingAfter) =>
      this.request<P>({ method: "GET", path, query: pageQuery(params, startingAfter), options }),
    );
  }

  private url(call: Call): string {
    const url = new URL(`${this.config.baseUrl}${call.path}`); // baseUrl has no trailing slash (Client)
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value === undefined) continue;
      if (typeof value !== "object") url.searchParams.set(name, String(value));
      else
        for (const [key, v] of Object.entries(value))
          if (v !== undefined) url.searchParams.set(`${name}[${key}]`, String(v));
    }
    return url.toString();
  }
}

function connectionError(call: Call, attempts: number, cause: unknown): ConnectionError {
  const timedOut = cause instanceof Error && cause.name === "TimeoutError";
  // fetch's own error says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND…) is its cause.
  const reason = (cause as { cause?: { code?: string } } | undefined)?.cause?.code ?? (cause as Error)?.message;
  const what = timedOut ? "timed out" : `failed (${reason ?? String(cause)})`;
  const message = `${call.method} ${call.path} ${what} after ${attempts} attempt${attempts === 1 ? "" : "s"}.`;
  return new ConnectionError(message, attempts, { cause });
}

function withMeta<T>(
  response: Response,
  text: string,
  sent: { idempotencyKey: string | null; attempts: number },
): WithResponse<T> {
  let value: T;
  try {
    value = JSON.parse(text) as T;
  } catch {
    throw new ApiError({
      type: "unexpected_response",
      message: `A ${response.status} answer that is not JSON: ${text.slice(0, 200)}`,
      status: response.status,
      param: null,
      requestId: response.headers.get("request-id"),
      headers: response.headers,
    });
  }
  const meta: ResponseMeta = {
    status: response.status,
    requestId: response.headers.get("request-id"),
    idempotencyKey: sent.idempotencyKey,
    idempotentReplayed: response.headers.get("idempotent-replayed") === "true",
    attempts: sent.attempts,
    headers: response.headers,
  };
  // Not enumerable: the object still serializes and compares as the API's JSON.
  Object.defineProperty(value, "lastResponse", { value: meta, enumerable: false });
  return value as WithResponse<T>;
}
