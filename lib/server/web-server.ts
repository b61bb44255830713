import http from "node:http";
import next from "next";
import { newRequestId } from "@/lib/api/respond";
import { log } from "@/lib/log";
import { clientIp } from "./client-ip";
import { admitPublicPageRequest, isPublicPagePath } from "./public-page-limit";
import { applyPageSecurity } from "./page-security";

export interface WebServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The HTTP front of the app: Next's request handler behind a thin node server that owns what Next does
 * not give route handlers: a trusted request id and client IP, the headers every response carries, and
 * the per-IP limit of the public pages.
 */
export async function startWebServer(opts: {
  dir: string;
  host: string;
  port: number;
  trustProxy: boolean;
}): Promise<WebServer> {
  const app = next({ dev: false, dir: opts.dir, hostname: opts.host, port: opts.port });
  await app.prepare();
  const handle = app.getRequestHandler();

  const server = http.createServer((req, res) => {
    const requestId = newRequestId();
    const ip = clientIp(req, opts.trustProxy);
    // Overwrite whatever the client sent: downstream code trusts these two headers.
    req.headers["x-request-id"] = requestId;
    req.headers["x-client-ip"] = ip;
    res.setHeader("X-API-Version", "1");
    res.setHeader("Request-Id", requestId);
    void (async () => {
      try {
        const pathname = (req.url ?? "/").split("?")[0]!;
        if (isPublicPagePath(pathname)) {
          if (!(await admitPublicPageRequest(ip, res))) return;
          await applyPageSecurity(req, res);
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

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;

  return {
    url: `http://${opts.host.includes(":") ? `[${opts.host}]` : opts.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // In-flight requests get a few seconds to finish; then the sockets are cut.
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      }),
  };
}
