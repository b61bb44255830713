import { timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { Registry } from "prom-client";
import { listenHttp } from "../listen-http";
import { log } from "../log";

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * `GET /metrics` in Prometheus' text format on a listener of its own (not the public port), and with a
 * token, only to `Authorization: Bearer <token>`. A scrape that fails to collect answers 500 with the
 * reason, so the target shows as down rather than reporting stale numbers.
 */
export async function startMetricsServer(opts: {
  host: string;
  port: number;
  token: string | undefined;
  registry: Registry;
}): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found: GET /metrics\n");
      return;
    }
    const auth = req.headers.authorization ?? "";
    if (opts.token && !sameSecret(auth, `Bearer ${opts.token}`)) {
      res.writeHead(401, { "content-type": "text/plain", "www-authenticate": "Bearer" }).end("unauthorized\n");
      return;
    }
    opts.registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": opts.registry.contentType }).end(text),
      (err: unknown) => {
        log.warn("metrics collection failed", { error: String(err) });
        res.writeHead(500, { "content-type": "text/plain" }).end("collection failed: see the process's log\n");
      },
    );
  });
  const base = await listenHttp(server, opts.host, opts.port).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`cannot serve metrics on ${opts.host}:${opts.port} (${err.code ?? err.message})`);
  });
  return {
    url: `${base}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
