import { ApiError, unknownPathError } from "./errors";
import { errorResponse, type RouteHandler } from "./route";
import { ORIGINAL_METHOD_HEADER, requestIdOf, requestMethod } from "./respond";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * A route file's exports: the methods it implements, and for every other method (those Next does not
 * route included) a 405 in the API's envelope (type invalid_request_error, status 405) with an Allow header.
 */
export function apiMethods(implemented: Partial<Record<Method, RouteHandler>>): Record<Method, RouteHandler> {
  const allow = METHODS.filter((m) => implemented[m]).join(", ");
  const notAllowed: RouteHandler = async (req) => {
    const path = new URL(req.url).pathname;
    const method = requestMethod(req);
    const err = new ApiError("invalid_request_error", `${method} is not supported on ${path}. Allowed: ${allow}.`, {
      status: 405,
      headers: { Allow: allow },
    });
    return errorResponse(err, requestIdOf(req), req);
  };
  const route = (handler: RouteHandler | undefined): RouteHandler => {
    if (!handler) return notAllowed;
    const routed: RouteHandler = (req, ctx) =>
      req.headers.has(ORIGINAL_METHOD_HEADER) ? notAllowed(req, ctx) : handler(req, ctx);
    routed.operationId = handler.operationId;
    return routed;
  };
  return Object.fromEntries(METHODS.map((m) => [m, route(implemented[m])])) as Record<Method, RouteHandler>;
}

/** Every method on an unknown /v1 path: 404 not_found in the envelope. */
export const unknownApiPath: RouteHandler = async (req) => {
  return errorResponse(unknownPathError(req), requestIdOf(req), req);
};
