import type { z } from "zod";
import { getDb, type Db } from "@/lib/db/client";
import { canonicalJson, sha256Hex } from "@/lib/crypto/hash";
import { authenticateApiKey, type AuthContext } from "@/lib/keys/authenticate-api-key";
import { hasScope, type Scope } from "@/lib/keys/scopes";
import { log } from "@/lib/log";
import { ApiError } from "./errors";
import { readIdempotencyKey, runIdempotently } from "./idempotency";
import { readJsonBody, readQuery, validate } from "./parse-input";
import { enforceKeyRateLimit } from "./rate-limit";
import { jsonResponse, requestIdOf } from "./respond";
import type { RateLimitClass } from "@/lib/rate-limit/policies";

export interface HandlerContext<Body, Query> {
  /** A transaction for POST (committed with the idempotency record), the pool for reads. */
  db: Db;
  auth: AuthContext;
  body: Body;
  query: Query;
  params: Record<string, string>;
  requestId: string;
}

export interface HandlerResult {
  status?: number;
  body: unknown;
}

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface ApiRouteDefinition<B extends Schema, Q extends Schema> {
  scope: Scope;
  rateLimit?: RateLimitClass;
  body?: B;
  query?: Q;
  handler: (ctx: HandlerContext<Out<B>, Out<Q>>) => Promise<HandlerResult>;
}

export type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/**
 * The one /v1 pipeline: authenticate → rate limit → scope → validate → (idempotent) execute → envelope.
 * Every response, errors included, carries X-API-Version and Request-Id.
 */
export function apiRoute<B extends Schema = undefined, Q extends Schema = undefined>(def: ApiRouteDefinition<B, Q>): RouteHandler {
  return async (req, routeCtx) => {
    const requestId = requestIdOf(req);
    let rateHeaders: Record<string, string> = {};
    try {
      const db = getDb();
      const auth = await authenticateApiKey(db, req.headers.get("authorization"));
      rateHeaders = await enforceKeyRateLimit(auth, def.rateLimit ?? "default");
      if (!hasScope(auth.scopes, def.scope)) {
        throw new ApiError("forbidden", `This API key does not have the '${def.scope}' permission required for this request.`);
      }
      const url = new URL(req.url);
      const params = Object.fromEntries(Object.entries((await routeCtx?.params) ?? {}).map(([k, v]) => [k, String(v)]));
      const query = (def.query ? validate(def.query, readQuery(url)) : undefined) as Out<Q>;

      if (req.method !== "POST") {
        const result = await def.handler({ db, auth, body: undefined as Out<B>, query, params, requestId });
        return jsonResponse(result.status ?? 200, JSON.stringify(result.body), requestId, rateHeaders);
      }

      const rawBody = await readJsonBody(req);
      const idempotencyKey = readIdempotencyKey(req);
      const body = (def.body ? validate(def.body, rawBody) : undefined) as Out<B>;
      const execute = (tx: Db) => executeWrite(tx, (db) => def.handler({ db, auth, body, query, params, requestId }), requestId);

      const stored = await db.transaction((tx) =>
        idempotencyKey
          ? runIdempotently(tx, auth, idempotencyKey, { method: req.method, path: url.pathname, hash: sha256Hex(`${req.method} ${url.pathname} ${canonicalJson(rawBody)}`) }, execute)
          : execute(tx).then((r) => ({ ...r, replayed: false })),
      );
      const replayHeader: Record<string, string> = stored.replayed ? { "Idempotent-Replayed": "true" } : {};
      return jsonResponse(stored.status, stored.bodyText, requestId, { ...rateHeaders, ...replayHeader });
    } catch (err) {
      return errorResponse(err, requestId, req, rateHeaders);
    }
  };
}

/** Runs the handler in a savepoint: a 4xx ApiError undoes its writes but is still a (storable) response. */
async function executeWrite(tx: Db, run: (db: Db) => Promise<HandlerResult>, requestId: string) {
  try {
    const result = await tx.transaction((savepoint) => run(savepoint));
    return { status: result.status ?? 200, bodyText: JSON.stringify(result.body) };
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return { status: err.status, bodyText: JSON.stringify(err.toBody(requestId)) };
    throw err;
  }
}

export function errorResponse(err: unknown, requestId: string, req: Request, extra: Record<string, string> = {}): Response {
  if (err instanceof ApiError) {
    return jsonResponse(err.status, JSON.stringify(err.toBody(requestId)), requestId, { ...extra, ...err.headers });
  }
  log.error("unhandled error in API request", {
    request_id: requestId,
    method: req.method,
    path: new URL(req.url).pathname,
    error: err instanceof Error ? err.stack ?? err.message : String(err),
  });
  const internal = new ApiError("internal_server_error", `An unexpected error occurred. Report it with request id ${requestId}.`);
  return jsonResponse(500, JSON.stringify(internal.toBody(requestId)), requestId, extra);
}
