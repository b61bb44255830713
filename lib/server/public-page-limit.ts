import type { ServerResponse } from "node:http";
import { getRateLimiter, LIMITS, retryAfterSeconds, WINDOW_MS } from "@/lib/rate-limit/policies";
import { setStaticPageHeaders } from "./page-security";

/**
 * The hosted pages (and their data endpoints) share one 30/min budget per client IP (docs/CHECKOUT.md).
 * `pathname` is the server's decoded, normalised path (lib/server/request-path.ts), never the raw one.
 */
const PUBLIC_AREAS = ["/checkout", "/pay", "/api/public"];

export function isPublicPagePath(pathname: string): boolean {
  return PUBLIC_AREAS.some((area) => pathname === area || pathname.startsWith(`${area}/`));
}

/**
 * Returns true when the request may proceed; otherwise it has written a readable 429 page. `clientKey`
 * is the client's limit key (lib/server/client-ip.ts: an IPv6 client's /64).
 */
export async function admitPublicPageRequest(clientKey: string, res: ServerResponse): Promise<boolean> {
  const result = await getRateLimiter().hit(`ip:${clientKey}:public_pages`, LIMITS.public_pages, WINDOW_MS);
  if (result.allowed) return true;
  const wait = retryAfterSeconds(result.retryAfterMs);
  res.statusCode = 429;
  res.setHeader("Retry-After", String(wait));
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  // A static page: no script may run on it.
  res.setHeader(
    "Content-Security-Policy",
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  );
  setStaticPageHeaders(res);
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Too many requests</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#0f172a">
<h1 style="font-size:1.5rem">Too many requests</h1><p>This page was loaded too often from your network. Please wait ${wait} second${wait === 1 ? "" : "s"} and reload.</p>
</body></html>`);
  return false;
}
