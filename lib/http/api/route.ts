import type { z } from "zod";
import { getDb, isPoolExhausted, isStatementTimeout, type Db, type Statement } from "@/lib/platform/db/client";
import { canonicalJson, sha256Hex } from "@/lib/kernel/hash";
import type { AuthContext } from "@/lib/identity/api-keys/authenticate-api-key";
import { hasScope } from "@/lib/identity/api-keys/scopes";
import { log } from "@/lib/platform/log";
import { DomainError } from "@/lib/kernel/domain-error";
import { ApiError, toApiError, unknownPathError } from "./errors";
import { executePhasedWrite } from "./execute-phased-write";
import { executeWrite } from "./execute-write";
import { readIdempotencyKey } from "./idempotency-header";
import { isImpossiblePathParam, readJsonBody, readQuery, refuseUnsafeText, validate } from "./parse-input";
import { authenticateAdmitted, rateLimitHeaders } from "./rate-limit";
import { eventStreamResponse, fileStreamResponse, jsonResponse, requestIdOf } from "./respond";
import type { Operation } from "./operation";

export interface HandlerContext<Body, Query> {
  /** A transaction for writes (committed with the idempotency record), the pool for reads. */
  db: Db;
  auth: AuthContext;
  body: Body;
  query: Query;
  params: Record<string, string>;
  /** The request headers the operation declares (`headers`), validated. */
  headers: Record<string, string | undefined>;
  /** Aborts when the client goes away: a stream stops with it. */
  signal: AbortSignal;
  requestId: string;
}

export interface HandlerResult {
  status?: number;
  body: unknown;
  /**
   * The body holds a secret shown once: its stored idempotent copy is encrypted
   * (lib/platform/idempotency/idempotency-keys.ts).
   */
  sensitive?: boolean;
  /** A GET that answers server-sent events: the stream replaces `body` (text/event-stream). */
  stream?: ReadableStream<Uint8Array>;
  /** The stream is a file (an export), not events: its media type and name. */
  file?: { contentType: string; filename: string };
  /** A POST's last writes, sent with its stored response and COMMIT (execute-write.ts `WriteResult`). */
  writes?: Statement[];
}

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * A POST that makes network calls (execute-phased-write.ts): `prepare` and `record` get a transaction as
 * `ctx.db`, `send` gets the pool and must not hold a connection across a network call.
 */
export interface PhasedHandler<Body, Query, Prepared, Sent> {
  prepare: (ctx: HandlerContext<Body, Query>) => Promise<Prepared>;
  send: (ctx: HandlerContext<Body, Query>, prepared: Prepared) => Promise<Sent>;
  record: (ctx: HandlerContext<Body, Query>, prepared: Prepared, sent: Sent) => Promise<HandlerResult>;
}

/** A route: its operation (lib/http/api/operations/) and what runs it. */
export interface ApiRouteDefinition<B extends Schema, Q extends Schema, P = unknown, S = unknown>
  extends Operation<B, Q> {
  /** Exactly one of handler and phases. */
  handler?: (ctx: HandlerContext<Out<B>, Out<Q>>) => Promise<HandlerResult>;
  phases?: PhasedHandler<Out<B>, Out<Q>, P, S>;
}

export type RouteHandler = ((
  req: Request,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>) & {
  /** The operation it serves (tests/api/operations-catalogue.test.ts checks every route has its own). */
  operationId?: string;
};

/**
 * The one /v1 pipeline: authenticate → rate limit → scope → validate → (idempotent) execute → envelope.
 * Every response, errors included, carries X-API-Version and Request-Id.
 */
export function apiRoute<B extends Schema = undefined, Q extends Schema = undefined, P = unknown, S = unknown>(
  def: ApiRouteDefinition<B, Q, P, S>,
): RouteHandler {
  const route: RouteHandler = async (req, routeCtx) => {
    const requestId = requestIdOf(req);
    let rateHeaders: Record<string, string> = {};
    try {
      const db = getDb();
      const { auth, rate } = await authenticateAdmitted(
        db,
        req.headers.get("authorization"),
        def.rateLimit ?? "default",
      );
      if (def.sandboxOnly && auth.mode !== "sandbox") throw unknownPathError(req);
      rateHeaders = rateLimitHeaders(rate);
      const missing = [def.scope].flat().find((scope) => !hasScope(auth.scopes, scope));
      if (missing) {
        throw new ApiError(
          "forbidden",
          `This API key does not have the '${missing}' permission required for this request.`,
        );
      }
      const url = new URL(req.url);
      const params = await readPathParams(routeCtx);
      const rawQuery = readQuery(url);
      refuseUnsafeText(rawQuery);
      const query = (def.query ? validate(def.query, rawQuery, { in: "query" }) : undefined) as Out<Q>;
      const headers = def.headers ? readDeclaredHeaders(def.headers, req.headers) : {};
      const signal = req.signal;

      // HEAD is a GET whose body is not sent (the route file answers it with GET): a read, not a write.
      if (req.method === "GET" || req.method === "HEAD") {
        const result = await def.handler!({
          db,
          auth,
          body: undefined as Out<B>,
          query,
          params,
          headers,
          signal,
          requestId,
        });
        if (result.stream && result.file) return fileStreamResponse(result.stream, result.file, requestId, rateHeaders);
        if (result.stream) return eventStreamResponse(result.stream, requestId, rateHeaders);
        return jsonResponse(result.status ?? 200, JSON.stringify(result.body), requestId, rateHeaders);
      }

      // Writes (POST, DELETE) run in one transaction, or as phases around their network calls; bodies and
      // Idempotency-Key belong to POST (docs/API.md#idempotency).
      const rawBody = req.method === "POST" ? await readJsonBody(req) : {};
      refuseUnsafeText(rawBody);
      const key = req.method === "POST" ? readIdempotencyKey(req) : null;
      const body = (def.body ? validate(def.body, rawBody) : undefined) as Out<B>;
      const idempotency = key
        ? {
            key,
            method: req.method,
            path: url.pathname,
            hash: sha256Hex(`${req.method} ${url.pathname} ${canonicalJson(rawBody)}`),
          }
        : null;
      const ctx = (handle: Db) => ({ db: handle, auth, body, query, params, headers, signal, requestId });
      const phases = def.phases;
      const stored = phases
        ? await executePhasedWrite(db, auth, idempotency, requestId, {
            prepare: (tx) => phases.prepare(ctx(tx)),
            send: (pool, prepared) => phases.send(ctx(pool), prepared),
            record: (tx, prepared, sent) => phases.record(ctx(tx), prepared, sent),
          })
        : await executeWrite(db, auth, idempotency, requestId, (tx) => def.handler!(ctx(tx)));
      const replayHeader: Record<string, string> = stored.replayed ? { "Idempotent-Replayed": "true" } : {};
      return jsonResponse(stored.status, stored.bodyText, requestId, { ...rateHeaders, ...replayHeader });
    } catch (err) {
      return errorResponse(err, requestId, req, rateHeaders);
    }
  };
  route.operationId = def.operationId;
  return route;
}

/** The headers an operation declares, by the names it declares them under, validated by its schema. */
function readDeclaredHeaders(schema: z.ZodObject, given: Headers): Record<string, string | undefined> {
  const raw = Object.fromEntries(Object.keys(schema.shape).map((name) => [name, given.get(name) ?? undefined]));
  refuseUnsafeText(raw);
  return validate(schema, raw) as Record<string, string | undefined>;
}

/** The route's path parameters; one no object could have (a NUL, say) is a 404 naming it. */
async function readPathParams(routeCtx: { params: Promise<Record<string, string | string[]>> } | undefined) {
  const params = Object.fromEntries(Object.entries((await routeCtx?.params) ?? {}).map(([k, v]) => [k, String(v)]));
  for (const [name, value] of Object.entries(params)) {
    if (isImpossiblePathParam(value))
      throw new ApiError("not_found", `No object has this ${name}: it contains control characters.`, { param: name });
  }
  return params;
}

export function errorResponse(
  err: unknown,
  requestId: string,
  req: Request,
  extra: Record<string, string> = {},
): Response {
  const overloaded = overloadError(err);
  if (overloaded) log.warn("database overloaded", { request_id: requestId, error: (err as Error).message });
  if (overloaded) err = overloaded;
  if (err instanceof DomainError) {
    const answer = toApiError(err);
    return jsonResponse(answer.status, JSON.stringify(answer.toBody(requestId)), requestId, {
      ...extra,
      ...answer.headers,
    });
  }
  // The client hung up mid-request: nobody reads this response, and it is not a server fault.
  if (req.signal.aborted) {
    log.debug("client aborted request", { request_id: requestId });
    return jsonResponse(499, "{}", requestId, extra);
  }
  log.error("unhandled error in API request", {
    request_id: requestId,
    method: req.method,
    path: new URL(req.url).pathname,
    error: err instanceof Error ? (err.stack ?? err.message) : String(err),
  });
  const internal = new ApiError(
    "internal_server_error",
    `An unexpected error occurred. Report it with request id ${requestId}.`,
  );
  return jsonResponse(500, JSON.stringify(internal.toBody(requestId)), requestId, extra);
}

/**
 * No free database connection within DATABASE_ACQUIRE_TIMEOUT_MS, or a statement past
 * DATABASE_STATEMENT_TIMEOUT_MS: the envelope says so (none of the nine types is "unavailable", so it is a
 * 500 with Retry-After; docs/API-DECISIONS.md#errors) instead of the request hanging.
 */
function overloadError(err: unknown): ApiError | null {
  if (!isPoolExhausted(err) && !isStatementTimeout(err)) return null;
  return new ApiError(
    "internal_server_error",
    "The service is busy and could not complete this request in time; " +
      "retry in a moment (with the same Idempotency-Key, a retry is safe).",
    { headers: { "Retry-After": "1" } },
  );
}
