import { requestMethod } from "./respond";

/** The API's error types (docs/API.md#errors) and the one status each maps to. Types are stable across releases. */
export const ERROR_STATUS = {
  invalid_request_error: 400,
  chain_disabled: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  idempotency_conflict: 409,
  insufficient_balance: 422,
  rate_limit_exceeded: 429,
  internal_server_error: 500,
} as const;

export type ErrorType = keyof typeof ERROR_STATUS;

export interface ApiErrorOptions {
  param?: string | null;
  /** Only for a wrong HTTP method (405 with type invalid_request_error); every other status follows the table. */
  status?: number;
  headers?: Record<string, string>;
}

/** The one error class every layer throws; the /v1 pipeline turns it into the error envelope. */
export class ApiError extends Error {
  readonly type: ErrorType;
  readonly status: number;
  readonly param: string | null;
  readonly headers: Record<string, string>;

  constructor(type: ErrorType, message: string, opts: ApiErrorOptions = {}) {
    super(message);
    this.name = "ApiError";
    this.type = type;
    this.status = opts.status ?? ERROR_STATUS[type];
    this.param = opts.param ?? null;
    this.headers = opts.headers ?? {};
  }

  toBody(requestId: string) {
    return {
      error: { type: this.type, message: this.message, status: this.status, param: this.param, request_id: requestId },
    };
  }
}

export const notFound = (what: string, id: string, param: string | null = "id") =>
  new ApiError("not_found", `No such ${what}: '${id}'`, { param });

export const invalidRequest = (message: string, param: string | null = null) =>
  new ApiError("invalid_request_error", message, { param });

/** An unknown /v1 path (also what a live key sees of the sandbox-only test helpers). */
export const unknownPathError = (req: Request) =>
  new ApiError("not_found", `Unrecognized request URL (${requestMethod(req)} ${new URL(req.url).pathname}).`, {
    param: null,
  });
