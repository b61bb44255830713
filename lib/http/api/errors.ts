import { DomainError, type ErrorType } from "@/lib/kernel/domain-error";
import { requestMethod } from "./respond";

/** Each error type's one HTTP status: the edge's whole mapping of domain errors (docs/API.md#errors). */
export const ERROR_STATUS: Record<ErrorType, number> = {
  invalid_request_error: 400,
  chain_disabled: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  idempotency_conflict: 409,
  insufficient_balance: 422,
  rate_limit_exceeded: 429,
  internal_server_error: 500,
};

/** Headers every answer of a type carries: a 401 names the scheme to authenticate with. */
const TYPE_HEADERS: Partial<Record<ErrorType, Record<string, string>>> = {
  unauthorized: { "WWW-Authenticate": 'Bearer realm="api"' },
};

export interface ApiErrorOptions {
  param?: string | null;
  /** Only for a wrong HTTP method (405 with type invalid_request_error); every other status follows the table. */
  status?: number;
  headers?: Record<string, string>;
}

/** A domain error as the /v1 edge answers it: with its status and headers; the pipeline's own errors are these. */
export class ApiError extends DomainError {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(type: ErrorType, message: string, opts: ApiErrorOptions = {}) {
    super(type, message, { param: opts.param });
    this.name = "ApiError";
    this.status = opts.status ?? ERROR_STATUS[type];
    this.headers = { ...TYPE_HEADERS[type], ...opts.headers };
  }

  toBody(requestId: string) {
    return {
      error: { type: this.type, message: this.message, status: this.status, param: this.param, request_id: requestId },
    };
  }
}

/** The edge's answer to a domain error (an ApiError already is one). */
export const toApiError = (err: DomainError): ApiError =>
  err instanceof ApiError
    ? err
    : new ApiError(err.type, err.message, {
        param: err.param,
        headers: err.retryAfterSeconds === null ? undefined : { "Retry-After": String(err.retryAfterSeconds) },
      });

/** An unknown /v1 path (also what a live key sees of the sandbox-only test helpers). */
export const unknownPathError = (req: Request) =>
  new ApiError("not_found", `Unrecognized request URL (${requestMethod(req)} ${new URL(req.url).pathname}).`, {
    param: null,
  });
