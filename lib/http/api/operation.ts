import type { z } from "zod";
import type { ErrorType } from "@/lib/kernel/domain-error";
import type { Scope } from "@/lib/identity/api-keys/scopes";
import type { RateLimitClass } from "@/lib/platform/rate-limit/policies";

type Schema = z.ZodType | undefined;

/**
 * One /v1 operation as data: what the pipeline enforces (scope, limits, the request's schemas) and what the
 * OpenAPI document publishes (path, summary, the response's schema), so the two cannot say different things.
 * A route file spreads its operation into apiRoute and adds only the handler.
 */
export interface Operation<B extends Schema = Schema, Q extends Schema = Schema> {
  operationId: string;
  method: "get" | "post" | "delete";
  /** The path as OpenAPI writes it: `{id}` for a path parameter. */
  path: `/v1/${string}`;
  /** The group it is listed under in the reference. */
  tag: string;
  summary: string;
  description?: string;
  /** The scope the key needs; with several, it needs every one. */
  scope: Scope | Scope[];
  /** Sandbox test helpers: to a live key the route does not exist (404, as for an unknown path). */
  sandboxOnly?: boolean;
  rateLimit?: RateLimitClass;
  body?: B;
  query?: Q;
  /** The path parameters' schemas, when not plain ids. */
  pathParams?: Record<string, z.ZodType>;
  /** Request headers it reads beyond the ones every operation may take (Authorization, Idempotency-Key). */
  headers?: z.ZodObject;
  /** The 200 body. */
  response: z.ZodType;
  /** The 200 body's media type when it is not JSON: an events stream answers `text/event-stream`. */
  produces?: "text/event-stream";
  /** A 200 body in several media types (an export: CSV or JSON lines), each with its schema; replaces `response`. */
  contents?: Record<string, z.ZodType>;
  /** Error types it answers beyond those every operation may (invalid_request_error, unauthorized, …). */
  errors?: readonly ErrorType[];
}

export const defineOperation = <B extends Schema = undefined, Q extends Schema = undefined>(
  operation: Operation<B, Q>,
): Operation<B, Q> => operation;
