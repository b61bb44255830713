import { z } from "zod";
import { ERROR_TYPES, type ErrorType } from "@/lib/kernel/domain-error";
import { ERROR_STATUS } from "../api/errors";
import type { Operation } from "../api/operation";
import { API_VERSION } from "../api/respond";

/** What the document's operations share: the error envelope, the response headers, one response per error status. */

/** The error envelope every failed request answers (docs/API.md#errors). */
export const errorEnvelope = z
  .object({
    error: z.object({
      type: z.enum(ERROR_TYPES),
      message: z.string().meta({ description: "For a person; may change. Branch on `type` and `param`." }),
      status: z.int(),
      param: z.string().nullable().meta({ description: "The request field at fault (`amount`, `metadata.order`)." }),
      request_id: z.string(),
    }),
  })
  .meta({ id: "Error" });

/** What every operation may answer besides its own errors. */
const COMMON_ERRORS: ErrorType[] = [
  "invalid_request_error",
  "unauthorized",
  "forbidden",
  "rate_limit_exceeded",
  "internal_server_error",
];

const header = (description: string, schema: { type: "string"; const?: string } = { type: "string" }) => ({
  description,
  schema,
});
/** Response headers, each written once under components.headers. */
export const HEADERS = {
  "Request-Id": header("This request's id: quote it to the operator."),
  "X-API-Version": header("The API version that answered.", { type: "string", const: API_VERSION }),
  "RateLimit-Limit": header("Requests allowed per 60 s window for this key and route class."),
  "RateLimit-Remaining": header("Requests left in the window."),
  "Retry-After": header("Seconds to wait before retrying."),
  "Idempotent-Replayed": header("`true` when the answer is the stored one of an earlier request with this key."),
};
export const ref = (names: (keyof typeof HEADERS)[]) =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
export const ALWAYS = ["Request-Id", "X-API-Version"] as const;
export const RATE_LIMIT = ["RateLimit-Limit", "RateLimit-Remaining"] as const;

/** One shared response per error status (components.responses), named by what it means. */
const ERROR_RESPONSES: Record<number, string> = {
  400: "InvalidRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  409: "IdempotencyConflict",
  422: "InsufficientBalance",
  429: "RateLimited",
  500: "InternalError",
};

export function errorResponseComponents() {
  const types = (status: number) => ERROR_TYPES.filter((t) => ERROR_STATUS[t] === status);
  return Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, name]) => [
      name,
      {
        description: `Error (${types(Number(status)).join(", ")}).`,
        headers: ref(status === "429" ? [...ALWAYS, ...RATE_LIMIT, "Retry-After"] : [...ALWAYS]),
        content: { "application/json": { schema: errorEnvelope } },
      },
    ]),
  );
}

export function errorResponses(op: Operation) {
  const types = [
    ...COMMON_ERRORS,
    ...(op.errors ?? []),
    ...(op.method === "post" ? ["idempotency_conflict" as const] : []),
    // To a live key a sandbox helper does not exist.
    ...(op.sandboxOnly ? ["not_found" as const] : []),
  ];
  const statuses = [...new Set(types.map((t) => ERROR_STATUS[t]))].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => [String(status), { $ref: `#/components/responses/${ERROR_RESPONSES[status]}` }]),
  );
}
