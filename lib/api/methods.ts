import { ApiError, unknownPathError } from "./errors";
import { errorResponse, type RouteHandler } from "./route";
import { requestIdOf } from "./respond";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * A route file's exports: the methods it implements, and for every other method a 405 in the API's
 * envelope (type invalid_request_error, status 405) with an Allow header.
 */
export function apiMethods(implemented: Partial<Record<Method, RouteHandler>>): Record<Method, RouteHandler> {
  const allow = METHODS.filter((m) => implemented[m]).join(", ");
  const notAllowed: RouteHandler = async (req) => {
    const path = new URL(req.url).pathname;
    const err = new ApiError("invalid_request_error", `${req.method} is not supported on ${path}. Allowed: ${allow}.`, {
      status: 405,
      headers: { Allow: allow },
    });
    return errorResponse(err, requestIdOf(req), req);
  };
  return Object.fromEntries(METHODS.map((m) => [m, implemented[m] ?? notAllowed])) as Record<Method, RouteHandler>;
}

/** Every method on an unknown /v1 path: 404 not_found in the envelope. */
export const unknownApiPath: RouteHandler = async (req) => {
  return errorResponse(unknownPathError(req), requestIdOf(req), req);
};
