import { randomUUID } from "node:crypto";

/** The service could not do what a command (trigger, listen) asked: the message says why, in words (exit 1). */
export class ServiceError extends Error {
  constructor(
    message: string,
    /** The HTTP status of the refusal, when the service answered one. */
    readonly status?: number,
    /** The parameter the refusal names, if any. */
    readonly param?: string | null,
  ) {
    super(message);
  }
}

export interface ServiceApi {
  readonly baseUrl: string;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
}

/** The service could not be reached at all: what to check. */
export function unreachable(root: string, err: unknown): ServiceError {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return new ServiceError(
    `cannot reach the service at ${root} (${cause?.code ?? cause?.message ?? String(err)}): ` +
      "is it running (npm start)? Give its address with --base-url or USDT_BASE_URL",
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RATE_LIMIT_PATIENCE_MS = 120_000;

/** What a refusal means for someone running `trigger`, from the API's error envelope. */
export function refusal(
  method: string,
  path: string,
  status: number,
  error: { message?: string; param?: string | null } | undefined,
): ServiceError {
  const said = error?.message ?? "no message";
  if (status === 401)
    return new ServiceError(`the service refused the API key (401: ${said}); check --api-key or USDT_API_KEY`, 401);
  if (status === 403)
    return new ServiceError(`${method} ${path}: the key lacks a scope (403: ${said})`, 403, error?.param);
  return new ServiceError(`${method} ${path}: ${status} ${said}`, status, error?.param);
}

/**
 * The /v1 API with one key, as a merchant's client calls it: Bearer key, an Idempotency-Key on each POST,
 * and a wait of Retry-After on a 429 (a trigger polls, and payouts have their own 10-a-minute window).
 */
export function serviceApi(baseUrl: string, apiKey: string): ServiceApi {
  const root = baseUrl.replace(/\/+$/, "");
  async function call(method: "GET" | "POST", path: string, body?: unknown) {
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
    if (method === "POST") {
      headers["content-type"] = "application/json";
      headers["idempotency-key"] = randomUUID();
    }
    // A 429 is waited out as Retry-After says, for up to RATE_LIMIT_PATIENCE_MS in all: triggers run side by side
    // with one key share its 60 calls a minute, and a developer's tool should slow down, not fail.
    const patientUntil = Date.now() + RATE_LIMIT_PATIENCE_MS;
    for (;;) {
      let res: Response;
      try {
        res = await fetch(`${root}${path}`, {
          method,
          headers,
          body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
        });
      } catch (err) {
        throw unreachable(root, err);
      }
      const text = await res.text();
      let json: { error?: { message?: string } } | undefined;
      try {
        json = JSON.parse(text);
      } catch {
        throw new ServiceError(`${method} ${path}: ${res.status}, not the service's JSON: is ${root} the service?`);
      }
      const wait = Number(res.headers.get("retry-after") ?? "5") * 1000;
      if (res.status === 429 && Date.now() + wait <= patientUntil) {
        await sleep(wait);
        continue;
      }
      if (!res.ok) throw refusal(method, path, res.status, json?.error);
      return json;
    }
  }
  // The caller names the shape it reads: the service's own OpenAPI document is what guarantees it.
  return {
    baseUrl: root,
    get: async <T>(path: string) => (await call("GET", path)) as T,
    post: async <T>(path: string, body?: unknown) => (await call("POST", path, body)) as T,
  };
}
