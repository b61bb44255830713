import type { ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { setStaticPageHeaders } from "./page-security";

/** The methods Next routes; any other reaching /v1 is answered 405 by the route's own method table. */
export const ROUTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
/** What the hosted pages accept (server actions are POSTs). */
const PAGE_METHODS = "GET, HEAD, POST";

export const isApiRawPath = (rawUrl: string) => /^\/v1(?:[/?\\]|$)/.test(rawUrl);

function envelope(type: string, status: number, message: string, requestId: string): string {
  return JSON.stringify({ error: { type, message, status, param: null, request_id: requestId } });
}

// A static page: no script may run on it.
const STATIC_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A short readable HTML page with the hosted pages' headers: the 429, refusal and 405 pages. */
export function writePlainPage(res: ServerResponse, status: number, title: string, text: string): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Content-Security-Policy", STATIC_PAGE_CSP);
  setStaticPageHeaders(res);
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
      `<title>${title}</title></head>` +
      `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;` +
      `padding:0 1rem;color:#0f172a">\n` +
      `<h1 style="font-size:1.5rem">${title}</h1><p>${text}</p>\n` +
      `</body></html>`,
  );
}

/** 400 for a path the server will not route: the API's envelope on /v1, a plain page elsewhere. */
export function refusePath(res: ServerResponse, api: boolean, reason: string, requestId: string): void {
  if (!api) {
    writePlainPage(res, 400, "Bad request", `${reason} Check the address and try again.`);
    return;
  }
  res.statusCode = 400;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.end(envelope("invalid_request_error", 400, reason, requestId));
}

/**
 * 404 in the API's envelope for a /v1 path with empty or dot segments (`/v1//payments`, a trailing `/`):
 * never a redirect, which a client would follow by re-sending its request somewhere it did not choose.
 */
export function refuseUnknownApiPath(
  res: ServerResponse,
  method: string,
  pathname: string,
  suggestion: string,
  requestId: string,
): void {
  res.statusCode = 404;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  const message =
    `Unrecognized request URL (${method.slice(0, 20)} ${pathname}). ` +
    `Paths have no empty or dot segments: did you mean ${suggestion}?`;
  res.end(envelope("not_found", 404, message, requestId));
}

/** 308 to the normalised path (built by lib/http/server/request-path.ts from the path's own segments). */
export function redirectToCanonical(res: ServerResponse, location: string): void {
  res.statusCode = 308;
  res.setHeader("Location", location);
  setStaticPageHeaders(res);
  res.end();
}

/** 405 for a method the hosted pages (or anything outside /v1) do not take. */
export function refusePageMethod(res: ServerResponse, method: string): void {
  res.setHeader("Allow", PAGE_METHODS);
  writePlainPage(res, 405, "Method not allowed", `${method.slice(0, 20)} is not supported here.`);
}

/**
 * A response written straight to the socket, for requests Node never hands to the request handler: a
 * method or request line its HTTP parser refuses (lowercase `get`, a raw NUL…) and CONNECT.
 */
export function writeRawEnvelope(socket: Duplex, status: 400 | 405, requestId: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const text = {
    400: ["Bad Request", "The request could not be parsed as HTTP (malformed request line or headers, or too large)."],
    405: ["Method Not Allowed", `This method is not supported. Allowed: ${ROUTED_METHODS.join(", ")}.`],
  }[status];
  const body = envelope("invalid_request_error", status, text[1]!, requestId);
  const allow = status === 405 ? `Allow: ${ROUTED_METHODS.join(", ")}\r\n` : "";
  socket.end(
    `HTTP/1.1 ${status} ${text[0]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-API-Version: 1\r\n` +
      `Request-Id: ${requestId}\r\n${allow}Connection: close\r\n\r\n${body}`,
  );
}
