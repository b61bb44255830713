import type { IncomingMessage } from "node:http";

/**
 * The client address used for per-IP limits. X-Forwarded-For is trusted only when the operator says a
 * proxy sits in front (TRUST_PROXY=true), and then only its right-most entry: the one that proxy added.
 */
export function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    const last = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? ""))
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .pop();
    if (last) return last;
  }
  return (req.socket.remoteAddress ?? "unknown").replace(/^::ffff:/, "");
}
