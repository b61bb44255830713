import type { ApiErrorBody } from "./types.js";

export type ApiErrorType = ApiErrorBody["type"];

/** Every error this SDK throws on purpose extends this. */
export class SdkError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The API answered with an error: the fields of its envelope `{ error: { type, message, status, param,
 * request_id } }`. Branch on `type` (or the subclass), never on `message`. `type` is `unexpected_response`
 * when the answer was not the API's envelope (a proxy's error page, say).
 */
export class ApiError extends SdkError {
  readonly type: ApiErrorType | "unexpected_response";
  readonly status: number;
  readonly param: string | null;
  /** The `Request-Id` of the failed request (`req_…`): quote it when reporting a problem. */
  readonly requestId: string | null;
  readonly headers: Headers;

  constructor(fields: {
    type: ApiErrorType | "unexpected_response";
    message: string;
    status: number;
    param: string | null;
    requestId: string | null;
    headers: Headers;
  }) {
    super(fields.message);
    this.type = fields.type;
    this.status = fields.status;
    this.param = fields.param;
    this.requestId = fields.requestId;
    this.headers = fields.headers;
  }
}

export class InvalidRequestError extends ApiError {
  declare readonly type: "invalid_request_error";
}
export class ChainDisabledError extends ApiError {
  declare readonly type: "chain_disabled";
}
export class UnauthorizedError extends ApiError {
  declare readonly type: "unauthorized";
}
export class ForbiddenError extends ApiError {
  declare readonly type: "forbidden";
}
export class NotFoundError extends ApiError {
  declare readonly type: "not_found";
}
export class IdempotencyConflictError extends ApiError {
  declare readonly type: "idempotency_conflict";
}
export class InsufficientBalanceError extends ApiError {
  declare readonly type: "insufficient_balance";
}
export class RateLimitError extends ApiError {
  declare readonly type: "rate_limit_exceeded";
  /** Seconds until the API admits a request again (its `Retry-After`). */
  get retryAfterSeconds(): number | null {
    const value = Number(this.headers.get("retry-after"));
    return Number.isFinite(value) && value >= 0 ? value : null;
  }
}
export class InternalServerError extends ApiError {
  declare readonly type: "internal_server_error";
}

// `satisfies` makes a new error type in the document a compile error here after `npm run generate`.
const CLASS_OF_TYPE = {
  invalid_request_error: InvalidRequestError,
  chain_disabled: ChainDisabledError,
  unauthorized: UnauthorizedError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  idempotency_conflict: IdempotencyConflictError,
  insufficient_balance: InsufficientBalanceError,
  rate_limit_exceeded: RateLimitError,
  internal_server_error: InternalServerError,
} satisfies Record<ApiErrorType, typeof ApiError>;

/** The typed error for a non-2xx answer. */
export function errorFromResponse(status: number, headers: Headers, text: string): ApiError {
  const headerRequestId = headers.get("request-id");
  const body = parseEnvelope(text);
  if (!body) {
    const message = `Unexpected ${status} answer (not the API's error envelope): ${text.slice(0, 200)}`;
    return new ApiError({
      type: "unexpected_response",
      message,
      status,
      param: null,
      requestId: headerRequestId,
      headers,
    });
  }
  const ErrorClass: typeof ApiError = CLASS_OF_TYPE[body.type] ?? ApiError;
  return new ErrorClass({
    type: body.type,
    message: body.message,
    status,
    param: body.param,
    requestId: body.request_id ?? headerRequestId,
    headers,
  });
}

function parseEnvelope(text: string): ApiErrorBody | null {
  try {
    const error = (JSON.parse(text) as { error?: ApiErrorBody }).error;
    return error && typeof error.type === "string" && typeof error.message === "string"
      ? { ...error, param: error.param ?? null }
      : null;
  } catch {
    return null;
  }
}

/** No answer came back (refused, reset, DNS, timeout) after every retry. */
export class ConnectionError extends SdkError {
  constructor(
    message: string,
    /** How many times the request was sent. */
    readonly attempts: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export type WebhookSignatureFailure =
  | "missing_header"
  | "malformed_header"
  | "no_matching_signature"
  | "timestamp_outside_tolerance";

/** `webhooks.constructEvent` refused a delivery; `reason` says why. */
export class WebhookSignatureError extends SdkError {
  constructor(
    readonly reason: WebhookSignatureFailure,
    message: string,
  ) {
    super(message);
  }
}
