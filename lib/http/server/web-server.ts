import { randomBytes } from "node:crypto";
import http from "node:http";
import next from "next";
import { newRequestId, ORIGINAL_METHOD_HEADER } from "@/lib/http/api/respond";
import { listenHttp } from "@/lib/platform/listen-http";
import { log } from "@/lib/platform/log";
import { clientIp, ipLimitKey } from "../../platform/client-ip";
import { loadActionClass } from "./public-actions";
import { admitPublicPageRequest, isPublicPagePath } from "./public-page-limit";
import { applyPageSecurity, isDashboardPath } from "./page-security";
import { isDocsPagePath } from "../docs/docs-page";
import {
  isApiRawPath,
  redirectToCanonical,
  refusePageMethod,
  refusePath,
  refuseUnknownApiPath,
  ROUTED_METHODS,
  writeRawEnvelope,
} from "./edge-responses";
import { isMultipartPost, vetMultipartPagePost } from "./page-form-body";
import { decideRequestPath, originForm } from "./request-path";
import { admitStatusStream, isStatusStreamPath } from "./stream-slots";
import { buildRoutes, httpMetrics } from "./http-metrics";
import { loadApiRoutes } from "./api-routes";
import { serveApiRoute } from "./serve-api-route";
import type { Registry } from "prom-client";

const CHARGED_HEADER = "x-public-budget-charged";
const NEXT_ROUTER_HEADERS = [
  "rsc",
  "next-action",
  "next-router-state-tree",
  "next-router-prefetch",
  "next-router-segment-prefetch",
  "next-hmr-refresh",
  "next-url",
  "x-middleware-subrequest",
  "x-middleware-prefetch",
  "x-nextjs-data",
];

export interface WebServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The HTTP front of the app: Next's request handler behind a thin node server that owns what Next does
 * not give route handlers: a trusted request id and client IP, the headers every response carries, one
 * normalised path that every decision uses (lib/http/server/request-path.ts), the per-IP limit and security
 * headers of the public pages, and the cap on open status streams.
 */
export async function startWebServer(opts: {
  dir: string;
  host: string;
  port: number;
  trustProxy: boolean;
  /** This process's metrics registry, when metrics are on: requests are counted and timed by route. */
  metrics?: Registry;
}): Promise<WebServer> {
  const app = next({ dev: false, dir: opts.dir, hostname: opts.host, port: opts.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  // /v1 is answered by its route handlers called here, not through Next's router (lib/http/server/api-routes.ts).
  const apiRoutes = await loadApiRoutes(opts.dir);
  if (!apiRoutes) log.warn("the build's /v1 route modules could not be loaded directly: Next serves /v1");
  const actionClass = loadActionClass(opts.dir);
  // Marks a request already charged to the public budget. Next forwards an action posted to another page's
  // path back through this server with the request's headers: the mark keeps that copy from paying twice,
  // and being this process's secret, no client can send it.
  const chargedMark = randomBytes(16).toString("hex");
  const requestMetrics = opts.metrics ? httpMetrics(opts.metrics, buildRoutes(opts.dir)) : null;

  const server = http.createServer((req, res) => {
    const requestId = newRequestId();
    const ip = clientIp(req, opts.trustProxy);
    // Overwrite whatever the client sent: downstream code trusts these two headers.
    req.headers["x-request-id"] = requestId;
    req.headers["x-client-ip"] = ip;
    delete req.headers[ORIGINAL_METHOD_HEADER];
    const charged = req.headers[CHARGED_HEADER] === chargedMark;
    delete req.headers[CHARGED_HEADER];
    res.setHeader("X-API-Version", "1");
    res.setHeader("Request-Id", requestId);
    void (async () => {
      try {
        const rawUrl = req.url ?? "/";
        const decision = decideRequestPath(rawUrl);
        const method = req.method ?? "GET";
        requestMetrics?.track(method, decision.kind === "ok" ? decision.pathname : null, res);
        if (decision.kind === "refuse")
          return refusePath(res, isApiRawPath(originForm(rawUrl)), decision.reason, requestId);
        if (decision.kind === "redirect") return redirectToCanonical(res, decision.location);
        if (decision.kind === "unknown-api-path")
          return refuseUnknownApiPath(res, method, decision.pathname, decision.suggestion, requestId);
        const { pathname } = decision;
        req.url = decision.forward;
        const api = pathname === "/v1" || pathname.startsWith("/v1/");
        // The API is route handlers only: Next's page-router headers (`RSC: 1` would get a 307 to an
        // `_rsc` URL, `Next-Action` an action lookup) mean nothing there and must not change the answer.
        if (api) for (const name of NEXT_ROUTER_HEADERS) delete req.headers[name];
        if (!(ROUTED_METHODS as readonly string[]).includes(method) || (api && method === "OPTIONS")) {
          if (!api) return refusePageMethod(res, method);
          // Routed as GET so the route's method table answers (405 with its Allow, or 404 if unknown);
          // OPTIONS too, since Next's automatic answer would list methods the route does not take.
          req.headers[ORIGINAL_METHOD_HEADER] = method;
          req.method = "GET";
        }
        if (api && apiRoutes) {
          const route = apiRoutes.match(req.method ?? method, decision.forward.split("?")[0]!);
          if (route?.handler) return await serveApiRoute(req, res, route.handler, route.params, decision.forward);
        }
        const publicPage = isPublicPagePath(pathname);
        // A public server action is charged wherever it is posted: Next runs an action by its id, on any path.
        const action = method === "POST" ? req.headers["next-action"] : undefined;
        const publicAction = typeof action === "string" && actionClass(action) === "public";
        const clientKey = ipLimitKey(ip);
        if ((publicPage || publicAction) && !charged) {
          if (!(await admitPublicPageRequest(clientKey, res))) return;
          req.headers[CHARGED_HEADER] = chargedMark;
        }
        // The dashboard gets the same CSP with a per-response nonce and security headers (docs/DASHBOARD.md),
        // and so does the API reference page, unchanged: swagger-ui's inline styles are already allowed.
        if (publicPage || isDashboardPath(pathname) || isDocsPagePath(pathname)) await applyPageSecurity(req, res);
        // HEAD too: Next answers it with the GET handler, which opens the stream all the same.
        const streaming = publicPage && (method === "GET" || method === "HEAD") && isStatusStreamPath(pathname);
        if (streaming && !admitStatusStream(clientKey, res)) return;
        if ((publicPage || publicAction) && isMultipartPost(req)) {
          const vetted = await vetMultipartPagePost(req, res);
          if (!vetted) return;
          return await handle(vetted, res);
        }
        await handle(req, res);
      } catch (err) {
        log.error("request failed outside the route handlers", {
          request_id: requestId,
          error: err instanceof Error ? err.stack : String(err),
        });
        if (!res.headersSent) {
          res.statusCode = 500;
          res.setHeader("Content-Type", "application/json; charset=utf-8");
        }
        res.end(
          JSON.stringify({
            error: {
              type: "internal_server_error",
              message: `An unexpected error occurred. Report it with request id ${requestId}.`,
              status: 500,
              param: null,
              request_id: requestId,
            },
          }),
        );
      }
    })();
  });
  server.keepAliveTimeout = 65_000;
  // Requests Node never hands to the handler above still get the envelope (not Node's bare 400).
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    // As Node's own handler: never write over a response already under way on this connection.
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) socket.destroy();
    else writeRawEnvelope(socket, err.code === "HPE_INVALID_METHOD" ? 405 : 400, newRequestId());
  });
  server.on("connect", (_req, socket) => writeRawEnvelope(socket, 405, newRequestId()));

  const url = await listenHttp(server, opts.host, opts.port);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // In-flight requests get a few seconds to finish; then the sockets are cut.
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      }),
  };
}
