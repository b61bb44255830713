import { readFileSync } from "node:fs";
import path from "node:path";
import { Counter, Histogram, type Registry } from "prom-client";
import { routePatterns } from "./route-patterns";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * A path's route as Next's build names it (`/v1/payments/[id]`, `/checkout/[id]`), so a label holds one
 * value per route, never one per id; a path no route serves is `unmatched` (scanners cannot grow the series).
 */
export function routeMatcher(routes: string[]): (pathname: string) => string {
  const match = routePatterns(routes.filter((r) => !r.startsWith("/_")).map((r) => [r, r] as [string, string]));
  return (pathname) => match(pathname)?.route ?? "unmatched";
}

/** The routes of the production build in `dir` (.next/app-path-routes-manifest.json). */
export function buildRoutes(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(dir, ".next", "app-path-routes-manifest.json"), "utf8"));
  return [...new Set(Object.values(manifest as Record<string, string>))];
}

/**
 * Requests by route, method and status, and their latency. Server-sent event streams are counted but not
 * timed: a stream lasts minutes by design and would say nothing about how fast the service answers.
 */
export function httpMetrics(registry: Registry, routes: string[]) {
  const routeOf = routeMatcher(routes);
  const requests = new Counter({
    name: "usdt_http_requests_total",
    help: "HTTP requests answered, by route, method and status.",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "usdt_http_request_duration_seconds",
    help: "Time to the last byte of the answer, by route and method (event streams excluded).",
    labelNames: ["route", "method"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    /** Called when a request starts; `pathname` is null for one refused or redirected before routing (route `none`). */
    track(
      method: string,
      pathname: string | null,
      res: { statusCode: number; getHeader(name: string): unknown; once(event: "close", fn: () => void): unknown },
    ) {
      const started = process.hrtime.bigint();
      res.once("close", () => {
        const route = pathname === null ? "none" : routeOf(pathname);
        const m = METHODS.has(method) ? method : "OTHER";
        requests.inc({ route, method: m, status: String(res.statusCode) });
        if (String(res.getHeader("content-type") ?? "").startsWith("text/event-stream")) return;
        duration.observe({ route, method: m }, Number(process.hrtime.bigint() - started) / 1e9);
      });
    },
  };
}
