/**
 * What went wrong, in the service's stable vocabulary (docs/API.md#errors). Domain code throws these and knows
 * nothing of HTTP; the /v1 edge (lib/http/api/errors.ts) maps each type to its status in one table, and the
 * dashboard shows the message.
 */
export const ERROR_TYPES = [
  "invalid_request_error",
  "chain_disabled",
  "unauthorized",
  "forbidden",
  "not_found",
  "idempotency_conflict",
  "insufficient_balance",
  "rate_limit_exceeded",
  "internal_server_error",
] as const;

export type ErrorType = (typeof ERROR_TYPES)[number];

export class DomainError extends Error {
  readonly type: ErrorType;
  /** The request field at fault (`amount`, `metadata.order`), or null. */
  readonly param: string | null;
  /** A transient refusal: the client may retry after this many seconds (the edge sends Retry-After). */
  readonly retryAfterSeconds: number | null;

  constructor(type: ErrorType, message: string, opts: { param?: string | null; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = "DomainError";
    this.type = type;
    this.param = opts.param ?? null;
    this.retryAfterSeconds = opts.retryAfterSeconds ?? null;
  }
}

export const notFound = (what: string, id: string, param: string | null = "id") =>
  new DomainError("not_found", `No such ${what}: '${id}'`, { param });

export const invalidRequest = (message: string, param: string | null = null) =>
  new DomainError("invalid_request_error", message, { param });
