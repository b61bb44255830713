import type { ServerResponse } from "node:http";
import { getRateLimiter, LIMITS, retryAfterSeconds, WINDOW_MS } from "@/lib/platform/rate-limit/policies";
import { writePlainPage } from "./edge-responses";

/**
 * The hosted pages (and their data endpoints) share one 30/min budget per client IP (docs/CHECKOUT.md).
 * `pathname` is the server's decoded, normalised path (lib/http/server/request-path.ts), never the raw one.
 */
const PUBLIC_AREAS = ["/checkout", "/pay", "/refund", "/api/public"];

export function isPublicPagePath(pathname: string): boolean {
  return PUBLIC_AREAS.some((area) => pathname === area || pathname.startsWith(`${area}/`));
}

/**
 * Returns true when the request may proceed; otherwise it has written a readable 429 page. `clientKey`
 * is the client's limit key (lib/platform/client-ip.ts: an IPv6 client's /64).
 */
export async function admitPublicPageRequest(clientKey: string, res: ServerResponse): Promise<boolean> {
  const result = await getRateLimiter().hit(`ip:${clientKey}:public_pages`, LIMITS.public_pages, WINDOW_MS);
  if (result.allowed) return true;
  const wait = retryAfterSeconds(result.retryAfterMs);
  res.setHeader("Retry-After", String(wait));
  writePlainPage(
    res,
    429,
    "Too many requests",
    `This page was loaded too often from your network. Please wait ${wait} second${wait === 1 ? "" : "s"} and reload.`,
  );
  return false;
}
